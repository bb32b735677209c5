import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@hoptrack/testing/processes';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { Cluster } from '@kubernetes-models/cloudnative-pg/postgresql.cnpg.io/v1/Cluster';
import { Pooler } from '@kubernetes-models/cloudnative-pg/postgresql.cnpg.io/v1/Pooler';
import { COMMANDS, PROCESSES, compiledPath } from '../build/catalogue';

/**
 * The Kubernetes manifests (deploy/k8s), checked without a cluster: every
 * kustomization renders with `kubectl kustomize`, every object validates
 * against the Kubernetes API schemas (kubernetes-models; CRDs with their model
 * packages), and the rules of the catalogue hold in each rendering, scanned
 * from infra/build/catalogue.ts rather than listed here: every process is
 * deployed with its entry point, port, probes and sizes; disruption budgets,
 * autoscalers and network policies cover it; every secret and config a pod
 * names exists; every database has its migration Job.
 */

// ---------------------------------------------------------------------------
// Rendering

const K8S = path.join(repoRoot, 'deploy/k8s');
const OVERLAYS = ['production', 'small'] as const;

interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** kubectl with kustomize v5 (the `labels` transformer, regex patch targets): missing means a failed test, never a skip. */
function kubectlProblem(): string | null {
  const fix = 'install kubectl >= 1.27 (kustomize v5), e.g. from https://pkgs.k8s.io (apt: kubectl), or put it on PATH';
  let out: string;
  try {
    out = execFileSync('kubectl', ['version', '--client', '-o', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    return `kubectl is not installed or does not run (${(err as Error).message.split('\n')[0]}): ${fix}`;
  }
  const version = (JSON.parse(out) as { kustomizeVersion?: string }).kustomizeVersion ?? '';
  const major = Number(/^v(\d+)\./.exec(version)?.[1] ?? 0);
  return major >= 5 ? null : `kubectl's kustomize is ${version || 'unknown'}, the manifests need v5: ${fix}`;
}
const kubectlMissing = kubectlProblem();

function kustomize(dir: string): string {
  if (kubectlMissing) throw new Error(kubectlMissing);
  return execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function parseObjects(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((doc) => doc.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);
}

// A copy of deploy/k8s without any operator's secrets.env: each overlay gets one
// made from its secrets.env.example (placeholders), as an operator would.
const workdir = mkdtempSync(path.join(os.tmpdir(), 'hoptrack-k8s-'));
const copy = path.join(workdir, 'k8s');
cpSync(K8S, copy, { recursive: true, filter: (source) => path.basename(source) !== 'secrets.env' });
afterAll(() => rmSync(workdir, { recursive: true, force: true }));

const rendered = new Map<string, KubeObject[]>();
function render(name: 'base' | (typeof OVERLAYS)[number]): KubeObject[] {
  let objects = rendered.get(name);
  if (!objects) {
    const dir = name === 'base' ? path.join(copy, 'base') : path.join(copy, 'overlays', name);
    if (name !== 'base') writeFileSync(path.join(dir, 'secrets.env'), readFileSync(path.join(dir, 'secrets.env.example')));
    objects = parseObjects(kustomize(dir));
    rendered.set(name, objects);
  }
  return objects;
}

// ---------------------------------------------------------------------------
// Validation against the API schemas

interface ModelClass {
  prototype: { validate(): void };
}

const MODELS: Record<string, ModelClass> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'networking.k8s.io/v1/Ingress': Ingress,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'postgresql.cnpg.io/v1/Cluster': Cluster,
  'postgresql.cnpg.io/v1/Pooler': Pooler,
};

/**
 * The object's problems against its schema: kubernetes-models' validator
 * (types, required fields, enums, formats), plus fields the schema does not
 * know. Those the validator lets through (the API server drops them with a
 * warning, so a misspelt `readinesProbe` would vanish silently); they are
 * found by watching which fields the validator reads: it reads every field its
 * schema declares, so a field never read is unknown to the schema.
 */
function schemaProblems(object: KubeObject): string[] {
  const model = MODELS[`${object.apiVersion}/${object.kind}`];
  if (!model) return [`no schema for ${object.apiVersion} ${object.kind}: add its model to MODELS`];
  const data = structuredClone(object) as unknown as Record<string, unknown>;
  const read = new WeakMap<object, Set<PropertyKey>>();
  const proxies = new WeakMap<object, object>();
  const watched = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    let proxy = proxies.get(value);
    if (!proxy) {
      const keys = new Set<PropertyKey>();
      read.set(value, keys);
      proxy = new Proxy(value, {
        get(target, key, receiver) {
          keys.add(key);
          return watched(Reflect.get(target, key, receiver));
        },
      });
      proxies.set(value, proxy);
    }
    return proxy;
  };
  const problems: string[] = [];
  try {
    model.prototype.validate.call(watched(data));
  } catch (err) {
    problems.push((err as Error).message);
  }
  const unknownFields = (value: unknown, at: string): void => {
    if (value === null || typeof value !== 'object') return;
    const keys = read.get(value);
    if (Array.isArray(value)) {
      value.forEach((item, i) => unknownFields(item, `${at}[${i}]`));
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      if (!keys?.has(key)) problems.push(`${at}.${key} is not a field of the schema`);
      else unknownFields(child, `${at}.${key}`);
    }
  };
  unknownFields(data, 'data');
  return problems;
}

const describeObject = (o: KubeObject) => `${o.kind} ${o.metadata?.name}`;

// ---------------------------------------------------------------------------
// Reading rendered objects

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean }; configMapKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface Probe {
  httpGet?: { path: string; port: number | string };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}
interface PodSpec {
  containers: Container[];
  securityContext?: { runAsNonRoot?: boolean };
  terminationGracePeriodSeconds?: number;
  volumes?: Array<{ name: string; emptyDir?: object }>;
}
interface Workload extends KubeObject {
  spec: { replicas?: number; strategy?: { rollingUpdate?: { maxSurge?: number | string } }; selector?: { matchLabels?: Record<string, string> }; template: { metadata?: { labels?: Record<string, string> }; spec: PodSpec } };
}
interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}
interface PolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: unknown;
}
interface NetworkPolicySpec {
  podSelector: LabelSelector;
  policyTypes?: string[];
  ingress?: Array<{ ports?: Array<{ port?: number | string }>; from?: PolicyPeer[] }>;
}
interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  selector: Record<string, string>;
  ports: Array<{ name: string; port: number }>;
}
type ServiceObject = KubeObject & { spec: ServiceSpec };

interface HpaSpec {
  scaleTargetRef: { kind: string; name: string };
  minReplicas?: number;
  maxReplicas: number;
  metrics?: Array<{
    type: string;
    resource?: { name: string };
    external?: { metric: { name: string; selector?: LabelSelector } };
  }>;
}

const ofKind = <T extends KubeObject = KubeObject>(objects: KubeObject[], kind: string) => objects.filter((o) => o.kind === kind) as T[];
const named = <T extends KubeObject>(objects: T[], name: string) => objects.find((o) => o.metadata.name === name);
const appOf = (w: Workload) => {
  const container = w.spec.template.spec.containers.find((c) => c.name === 'app');
  if (!container) throw new Error(`${describeObject(w)} has no container named app`);
  return container;
};

function selects(selector: LabelSelector | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return false;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    if (operator === 'In' && !values.includes(labels[key] ?? '\0')) return false;
    else if (operator === 'Exists' && !(key in labels)) return false;
    else if (operator === 'DoesNotExist' && key in labels) return false;
    else if (operator === 'NotIn' && values.includes(labels[key] ?? '\0')) return false;
    else if (!['In', 'NotIn', 'Exists', 'DoesNotExist'].includes(operator)) throw new Error(`selector operator ${operator}: teach the test to read it`);
  }
  return true;
}

/** Every variable a container sees, as `kubectl` would set it: envFrom ConfigMaps first, then env. */
function effectiveEnv(objects: KubeObject[], container: Container): Map<string, string> {
  const env = new Map<string, string>();
  for (const source of container.envFrom ?? []) {
    if (!source.configMapRef) continue;
    const cm = named(ofKind<KubeObject & { data?: Record<string, string> }>(objects, 'ConfigMap'), source.configMapRef.name);
    for (const [key, value] of Object.entries(cm?.data ?? {})) env.set(key, value);
  }
  for (const v of container.env ?? []) {
    const value = v.value ?? (v.valueFrom?.secretKeyRef ? `<secret ${v.valueFrom.secretKeyRef.key}>` : '');
    env.set(v.name, value.replace(/\$\((\w+)\)/g, (whole, ref: string) => env.get(ref) ?? whole));
  }
  return env;
}

function portNumber(container: Container, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

/** Kubernetes quantities (`160Mi`, `1`, `250m`) in bytes or cores. */
function quantity(text: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|k|M|G)?$/.exec(text ?? '');
  if (!m) return Number.NaN;
  const factor: Record<string, number> = { m: 1e-3, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, k: 1e3, M: 1e6, G: 1e9 };
  return Number(m[1]) * (m[2] ? (factor[m[2]] ?? Number.NaN) : 1);
}

/** Replicas a Deployment runs at least: its HPA's minimum when one owns it. */
function minReplicas(objects: KubeObject[], deployment: Workload): number {
  const hpa = hpaFor(objects, deployment.metadata.name);
  return hpa ? (hpa.spec.minReplicas ?? 1) : (deployment.spec.replicas ?? 1);
}
function maxReplicas(objects: KubeObject[], deployment: Workload): number {
  const hpa = hpaFor(objects, deployment.metadata.name);
  return hpa ? hpa.spec.maxReplicas : (deployment.spec.replicas ?? 1);
}
/** The Services whose selector picks the Deployment's pods. */
function servicesOf(objects: KubeObject[], deployment: Workload): ServiceObject[] {
  return ofKind<ServiceObject>(objects, 'Service').filter((s) => selects({ matchLabels: s.spec.selector }, deployment.spec.template.metadata?.labels));
}

function hpaFor(objects: KubeObject[], deployment: string) {
  return ofKind<KubeObject & { spec: HpaSpec }>(objects, 'HorizontalPodAutoscaler').find(
    (h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === deployment,
  );
}

const readRepo = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const MIGRATE = COMMANDS.find((c) => c.dir === 'infra/ops' && c.entry === 'migrate.ts');

/** Pods a rolling update adds above the replicas (maxSurge): the budgets count them. */
function surge(deployment: Workload): number {
  const value = deployment.spec.strategy?.rollingUpdate?.maxSurge ?? 1;
  if (typeof value !== 'number') throw new Error(`${describeObject(deployment)}: maxSurge ${value}: give it as a number of pods, which the budgets can add`);
  return value;
}
/** The most pods a Deployment runs: its maximum, plus the surge of a rollout. */
const peakPods = (objects: KubeObject[], deployment: Workload) => maxReplicas(objects, deployment) + surge(deployment);
/** The host and database a postgresql:// URL names. */
function postgresTarget(url: string | undefined): { host: string; database: string } | undefined {
  const m = /^postgresql:\/\/[^@]+@([^:/]+):\d+\/(\w+)$/.exec(url ?? '');
  return m ? { host: m[1] as string, database: m[2] as string } : undefined;
}
/** The catalogue's processes whose package's config reads the variable. */
const readersOf = (variable: string) => PROCESSES.filter((p) => p.dir.startsWith('services/') && readRepo(`${p.dir}/src/config.ts`).includes(`${variable}:`));

type PoolerObject = KubeObject & { spec: { cluster: { name: string }; type: string; instances: number; pgbouncer: { poolMode: string; parameters: Record<string, string> } } };
type ClusterObject = KubeObject & { spec: { postgresql: { parameters: Record<string, string> } } };
const clusterOf = () => infraManifests().find((o) => o.kind === 'Cluster') as ClusterObject;
const poolerOf = () => {
  const pooler = infraManifests().find((o) => o.kind === 'Pooler') as PoolerObject | undefined;
  if (!pooler) throw new Error('deploy/k8s/infra/postgres-cluster.yaml has no CloudNativePG Pooler (PgBouncer) in front of the Cluster');
  return pooler;
};

// ---------------------------------------------------------------------------

describe('the tools', () => {
  it('has kubectl with kustomize v5 (needed on every machine that runs the tests)', () => {
    expect(kubectlMissing, kubectlMissing ?? '').toBeNull();
  });

  it('rejects invalid objects, so a passing validation means something', () => {
    const deployment = render('base').find((o) => o.kind === 'Deployment') as Workload;
    expect(schemaProblems(deployment)).toEqual([]);
    const broken = (edit: (d: Workload) => void) => {
      const copyOf = structuredClone(deployment);
      edit(copyOf);
      return schemaProblems(copyOf).join('; ');
    };
    expect(broken((d) => Object.assign(d.spec, { replicas: 'two' }))).toMatch(/replicas must be integer/);
    expect(broken((d) => Object.assign(d.spec, { replicaz: 2 }))).toMatch(/data\.spec\.replicaz is not a field/);
    expect(broken((d) => Object.assign(appOf(d), { readinesProbe: { httpGet: { path: '/readyz', port: 'http' } } }))).toMatch(
      /containers\[0\]\.readinesProbe is not a field/,
    );
    expect(broken((d) => Object.assign(d.spec.template.spec, { containers: undefined }))).toMatch(/must have required property containers/);
    expect(broken((d) => Object.assign(appOf(d), { ports: [{ containerPort: 'http' }] }))).toMatch(/containerPort must be integer/);

    const monitor = render('base').find((o) => o.kind === 'ServiceMonitor') as KubeObject & { spec: Record<string, unknown> };
    expect(schemaProblems(monitor)).toEqual([]);
    expect(schemaProblems({ ...monitor, spec: { ...monitor.spec, endpoints: { port: 'http' } } }).join('; ')).toMatch(/endpoints must be array/);
    expect(schemaProblems({ ...monitor, spec: { ...monitor.spec, endpoint: [] } }).join('; ')).toMatch(/spec\.endpoint is not a field/);

    const cluster = infraManifests().find((o) => o.kind === 'Cluster') as KubeObject & { spec: Record<string, unknown> };
    expect(schemaProblems({ ...cluster, spec: { ...cluster.spec, instances: 'three' } }).join('; ')).toMatch(/instances must be integer/);
    expect(schemaProblems({ ...cluster, spec: { ...cluster.spec, replicas: 3 } }).join('; ')).toMatch(/spec\.replicas is not a field/);
    expect(schemaProblems({ ...deployment, kind: 'Deploymnet' })).toEqual([expect.stringMatching(/no schema for apps\/v1 Deploymnet/)]);
  });
});

describe.each(['base', ...OVERLAYS] as const)('deploy/k8s %s', (name) => {
  const objects = () => render(name);
  const deployments = () => ofKind<Workload>(objects(), 'Deployment');
  const jobs = () => ofKind<Workload & { spec: { template: Workload['spec']['template'] } }>(objects(), 'Job');

  it('renders with kubectl kustomize, every object in the namespace hoptrack', () => {
    expect(objects().length).toBeGreaterThan(40);
    for (const o of objects()) {
      if (o.kind === 'Namespace') expect(o.metadata.name).toBe('hoptrack');
      else expect(o.metadata.namespace, describeObject(o)).toBe('hoptrack');
    }
  });

  it('validates every object against the Kubernetes API schemas, unknown fields included', () => {
    const problems = objects().flatMap((o) => schemaProblems(o).map((p) => `${describeObject(o)}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('deploys exactly the processes of the catalogue', () => {
    expect(deployments().map((d) => d.metadata.name).sort()).toEqual(PROCESSES.map((p) => p.name).sort());
  });

  describe.each(PROCESSES.map((p) => [p.name, p] as const))('%s', (processName, spec) => {
    const deployment = () => {
      const d = named(deployments(), processName);
      if (!d) throw new Error(`no Deployment ${processName}`);
      return d;
    };

    it('runs its compiled entry point from the one image, with its port', () => {
      const app = appOf(deployment());
      expect(app.command).toEqual(['node', compiledPath(spec.dir, spec.entry)]);
      expect(app.image).toMatch(/(^|\/)hoptrack\/node(:|$)/);
      expect(deployment().spec.template.spec.containers).toHaveLength(1);
      // The gateway has its operator port besides (metrics, issue 39): the public one never serves them.
      expect(app.ports?.map((p) => p.containerPort)).toEqual(spec.kind === 'gateway' ? [spec.port, 9464] : [spec.port]);
      expect(effectiveEnv(objects(), app).get('PORT')).toBe(String(spec.port));
      if (spec.kind === 'gateway') expect(effectiveEnv(objects(), app).get('GATEWAY_METRICS_PORT')).toBe('9464');
    });

    it('is ready on /readyz and alive on /healthz at its port', () => {
      const app = appOf(deployment());
      expect(app.readinessProbe?.httpGet?.path).toBe('/readyz');
      expect(portNumber(app, app.readinessProbe?.httpGet?.port)).toBe(spec.port);
      expect(app.livenessProbe?.httpGet?.path).toBe('/healthz');
      expect(portNumber(app, app.livenessProbe?.httpGet?.port)).toBe(spec.port);
    });

    it('asks for CPU and memory and is limited in both', () => {
      const { requests, limits } = appOf(deployment()).resources ?? {};
      for (const r of ['cpu', 'memory']) {
        expect(quantity(requests?.[r]), `request ${r}`).toBeGreaterThan(0);
        expect(quantity(limits?.[r]), `limit ${r}`).toBeGreaterThanOrEqual(quantity(requests?.[r]));
      }
    });

    it(spec.kind === 'tool' ? 'runs at least one copy' : 'runs at least two copies', () => {
      expect(minReplicas(objects(), deployment())).toBeGreaterThanOrEqual(spec.kind === 'tool' ? 1 : 2);
    });

    it('runs as a non-root user on a read-only root filesystem, writing only to /tmp', () => {
      const pod = deployment().spec.template.spec;
      const app = appOf(deployment());
      expect(pod.securityContext?.runAsNonRoot).toBe(true);
      expect(app.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      const tmp = app.volumeMounts?.find((m) => m.mountPath === '/tmp');
      expect(pod.volumes?.find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
    });

    it('sets production mode, the malloc arena limit and the young-generation cap, and outlives its own drain and shutdown', () => {
      const env = effectiveEnv(objects(), appOf(deployment()));
      expect(env.get('NODE_ENV')).toBe('production');
      expect(env.get('MALLOC_ARENA_MAX')).toBe('2');
      // As the image sets it (infra/docker/node.Dockerfile); a NODE_OPTIONS of its own would drop it.
      expect(env.get('NODE_OPTIONS')).toContain('--max-semi-space-size=4');
      // Processes with a bus ask for as many copies of each stream as the NATS cluster has servers.
      if (spec.database) {
        const servers = (parse(readFileSync(path.join(repoRoot, 'deploy/k8s/infra/nats-values.yaml'), 'utf8')) as { config: { cluster: { replicas: number } } }).config.cluster.replicas;
        expect(Number(env.get('NATS_STREAM_REPLICAS'))).toBe(servers);
      }
      const drain = Number(env.get('SHUTDOWN_DRAIN_MS') ?? 2000);
      const timeout = Number(env.get('SHUTDOWN_TIMEOUT_MS') ?? 10_000);
      expect((deployment().spec.template.spec.terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(drain + timeout);
    });

    it('has a ClusterIP Service of its name on its port', () => {
      const service = named(ofKind<ServiceObject>(objects(), 'Service'), processName);
      expect(service?.spec.type ?? 'ClusterIP').toBe('ClusterIP');
      expect(service?.spec.clusterIP).not.toBe('None');
      expect(servicesOf(objects(), deployment())).toContain(service);
      for (const s of servicesOf(objects(), deployment())) {
        const ports = [expect.objectContaining({ name: 'http', port: spec.port })];
        // The gateway's own Service carries its operator port too, for Prometheus (its NetworkPolicy admits nobody else).
        if (spec.kind === 'gateway' && s.metadata.name === 'gateway') ports.push(expect.objectContaining({ name: 'metrics', port: 9464 }));
        expect(s.spec.ports, s.metadata.name).toEqual(ports);
      }
    });

    if (spec.gatewayVar)
      it(`is reached by the gateway (${spec.gatewayVar}) through a headless Service, one address per ready pod`, () => {
        const gateway = named(deployments(), 'gateway') as Workload;
        const urls = effectiveEnv(objects(), appOf(gateway)).get(spec.gatewayVar ?? '')?.split(',') ?? [];
        expect(urls.length).toBeGreaterThan(0);
        for (const url of urls) {
          const { hostname, port } = new URL(url.trim());
          const service = servicesOf(objects(), deployment()).find((s) => s.metadata.name === hostname);
          expect(service, `${url} names no Service of ${processName}`).toBeDefined();
          expect(service?.spec.clusterIP).toBe('None');
          expect(Number(port)).toBe(spec.port);
        }
      });

    it('has a PodDisruptionBudget that selects it and still lets a node drain', () => {
      const budgets = ofKind<KubeObject & { spec: { selector: LabelSelector; minAvailable?: number; maxUnavailable?: number } }>(objects(), 'PodDisruptionBudget').filter((b) =>
        selects(b.spec.selector, deployment().spec.template.metadata?.labels),
      );
      expect(budgets).toHaveLength(1);
      const budget = budgets[0]?.spec;
      if (budget?.minAvailable !== undefined) expect(budget.minAvailable).toBeLessThan(minReplicas(objects(), deployment()));
      else expect(budget?.maxUnavailable).toBeGreaterThanOrEqual(1);
    });

    // Every process but the operators' tool autoscales (the queue board is one copy).
    if (spec.kind !== 'tool')
      it('scales with a HorizontalPodAutoscaler on CPU', () => {
        const hpa = hpaFor(objects(), processName);
        expect(hpa, `no HPA targets Deployment ${processName}`).toBeDefined();
        expect(hpa?.spec.metrics).toContainEqual(expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) }));
        expect(hpa?.spec.maxReplicas).toBeGreaterThan(hpa?.spec.minReplicas ?? 1);
      });

    if (spec.kind === 'worker')
      it('scales on its queue depth too, through a metric prometheus-adapter serves', () => {
        const external = hpaFor(objects(), processName)?.spec.metrics?.find((m) => m.type === 'External')?.external?.metric;
        expect(external?.name).toBeDefined();
        const adapter = parse(readRepo('deploy/k8s/infra/prometheus-adapter-values.yaml')) as {
          rules: { external: Array<{ seriesQuery: string; name: { as: string } }> };
        };
        const rule = adapter.rules.external.find((r) => r.name.as === external?.name);
        expect(rule, `prometheus-adapter has no rule for ${external?.name}`).toBeDefined();
        // The series the rule reads is one the runtime registers.
        const series = /^(\w+)/.exec(rule?.seriesQuery ?? '')?.[1] ?? '';
        expect(readRepo('services/runtime/src/queues.ts')).toContain(`name: '${series}'`);
        // And the queue it watches is one of ours (the queue board shows them all).
        const queues = /QUEUE_BOARD_QUEUES:[\s\S]*?\.default\('([^']+)'\)/.exec(readRepo('services/queue-board/src/config.ts'))?.[1]?.split(',') ?? [];
        expect(queues).toContain(external?.selector?.matchLabels?.queue);
      });

    it('admits traffic only from whoever it serves, and Prometheus', () => {
      const podLabels = deployment().spec.template.metadata?.labels;
      const policies = ofKind<KubeObject & { spec: NetworkPolicySpec }>(objects(), 'NetworkPolicy').filter((p) => selects(p.spec.podSelector, podLabels));
      expect(policies.length, 'no NetworkPolicy selects it').toBeGreaterThan(0);
      const rules = policies.flatMap((p) => {
        expect(p.spec.policyTypes).toContain('Ingress');
        return (p.spec.ingress ?? []).filter((r) => !r.ports || r.ports.some((port) => portNumber(appOf(deployment()), port.port) === spec.port));
      });
      if (spec.kind === 'gateway') {
        // The public door: some rule admits everyone on its port...
        expect(rules.some((r) => !r.from || r.from.length === 0)).toBe(true);
        // ...and its operator port (metrics, issue 39) admits Prometheus' namespace only.
        const operator = policies.flatMap((p) => (p.spec.ingress ?? []).filter((r) => r.ports?.some((port) => portNumber(appOf(deployment()), port.port) === 9464)));
        expect(operator.length, 'a rule for the operator port').toBeGreaterThan(0);
        for (const rule of operator) expect(rule.from).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);
        return;
      }
      const admitted = new Set<string>();
      let monitoring = false;
      for (const rule of rules) {
        expect(rule.from?.length, 'a rule without `from` admits everyone').toBeGreaterThan(0);
        for (const peer of rule.from ?? []) {
          expect(peer.ipBlock, 'an ipBlock peer').toBeUndefined();
          if (peer.namespaceSelector) {
            // Only Prometheus' namespace, never another namespace's pods.
            expect(peer.namespaceSelector).toEqual({ matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } });
            monitoring = true;
          } else {
            for (const d of deployments()) if (selects(peer.podSelector, d.spec.template.metadata?.labels)) admitted.add(d.metadata.name);
          }
        }
      }
      expect(monitoring, 'Prometheus (namespace monitoring) may scrape it').toBe(true);
      // Its callers are the processes configured with the address of a Service of its pods (the
      // gateway's *_SERVICE_URL, everyone's AUTH_JWKS_URL, sessions' MEDIA_INTERNAL_URL): those and no others.
      const addresses = servicesOf(objects(), deployment()).map((s) => `//${s.metadata.name}:${spec.port}`);
      const callers = deployments()
        .filter((d) => [...effectiveEnv(objects(), appOf(d)).values()].some((v) => addresses.some((a) => v.includes(a))))
        .map((d) => d.metadata.name);
      expect([...admitted].sort()).toEqual(callers.sort());
      if (spec.kind === 'api') expect(callers).toContain('gateway');
    });
  });

  it('gives every pod the Secrets, keys and ConfigMaps it names', () => {
    const secrets = ofKind<KubeObject & { data?: Record<string, string>; stringData?: Record<string, string> }>(objects(), 'Secret');
    const configMaps = ofKind<KubeObject & { data?: Record<string, string> }>(objects(), 'ConfigMap');
    const missing: string[] = [];
    for (const w of [...deployments(), ...jobs()]) {
      for (const c of w.spec.template.spec.containers) {
        for (const v of c.env ?? []) {
          const ref = v.valueFrom?.secretKeyRef;
          if (ref && !ref.optional) {
            const secret = named(secrets, ref.name);
            if (!secret || !(ref.key in { ...secret.data, ...secret.stringData })) missing.push(`${describeObject(w)}: secret ${ref.name} key ${ref.key}`);
          }
          const cmRef = v.valueFrom?.configMapKeyRef;
          if (cmRef && !cmRef.optional && !(cmRef.key in (named(configMaps, cmRef.name)?.data ?? {}))) missing.push(`${describeObject(w)}: configmap ${cmRef.name} key ${cmRef.key}`);
        }
        for (const source of c.envFrom ?? []) {
          if (source.configMapRef && !named(configMaps, source.configMapRef.name)) missing.push(`${describeObject(w)}: configmap ${source.configMapRef.name}`);
          if (source.secretRef && !named(secrets, source.secretRef.name)) missing.push(`${describeObject(w)}: secret ${source.secretRef.name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('defines every $(VARIABLE) a container value refers to before it', () => {
    const undefinedRefs: string[] = [];
    for (const w of [...deployments(), ...jobs()]) {
      for (const c of w.spec.template.spec.containers) {
        const env = effectiveEnv(objects(), c);
        for (const [key, value] of env) for (const ref of value.matchAll(/\$\((\w+)\)/g)) undefinedRefs.push(`${describeObject(w)}: ${key} refers to ${ref[1]}`);
      }
    }
    expect(undefinedRefs).toEqual([]);
  });

  it('has a migration Job for every database, applied before the rollout with what it needs', () => {
    expect(MIGRATE, 'infra/ops/migrate.ts in the catalogue COMMANDS').toBeDefined();
    const databases = [...new Set(PROCESSES.flatMap((p) => (p.database ? [p.database] : [])))];
    for (const database of databases) {
      // The service that owns the database is the API process of that name.
      const owner = PROCESSES.find((p) => p.kind === 'api' && p.database === database)?.name;
      const job = jobs().find((j) => appOf(j).command?.at(-1) === owner);
      expect(job, `no migration Job for ${database}`).toBeDefined();
      if (!job || !MIGRATE) continue;
      const app = appOf(job);
      expect(app.command).toEqual(['node', compiledPath(MIGRATE.dir, MIGRATE.entry), owner]);
      expect(effectiveEnv(objects(), app).get('DATABASE_URL')).toMatch(new RegExp(`^postgresql://[^/]+/${database}$`));
      // Every process on that database migrates at the same one at start-up, and is served by it through the Pooler.
      const direct = effectiveEnv(objects(), app).get('DATABASE_URL');
      for (const p of PROCESSES.filter((q) => q.database === database)) {
        const env = effectiveEnv(objects(), appOf(named(deployments(), p.name) as Workload));
        expect(env.get('DATABASE_MIGRATION_URL'), p.name).toBe(direct);
        expect(postgresTarget(env.get('DATABASE_URL')), p.name).toEqual({ ...postgresTarget(direct), host: poolerOf().metadata.name });
      }
      // The first apply (-l hoptrack.io/deploy-phase=migrate) carries the Job and everything it reads.
      const phase = (o: KubeObject | undefined) => o?.metadata.labels?.['hoptrack.io/deploy-phase'];
      expect(phase(job)).toBe('migrate');
      for (const ref of [...(app.envFrom ?? []).map((s) => s.configMapRef?.name ?? s.secretRef?.name), ...(app.env ?? []).map((v) => v.valueFrom?.secretKeyRef?.name)]) {
        if (ref) expect(phase(objects().find((o) => (o.kind === 'ConfigMap' || o.kind === 'Secret') && o.metadata.name === ref)), ref).toBe('migrate');
      }
      expect(phase(objects().find((o) => o.kind === 'Namespace'))).toBe('migrate');
    }
  });

  it('keeps every process under its memory limit at the load benchmark peak, with 20 % to spare', () => {
    // docs/benchmarks.md, 'Peak resident memory' (written by the bench): | process | N MB |.
    const peaks = new Map([...readRepo('docs/benchmarks.md').matchAll(/^\| ([a-z-]+) \| (\d+) MB \|$/gm)].map((m) => [m[1] as string, Number(m[2])]));
    const measured = PROCESSES.filter((p) => peaks.has(p.name));
    expect(measured.length, 'the benchmark table of peak RSS').toBeGreaterThan(PROCESSES.length / 2);
    for (const p of measured) {
      const limit = quantity(appOf(named(deployments(), p.name) as Workload).resources?.limits?.memory);
      expect(limit, p.name).toBeGreaterThanOrEqual((peaks.get(p.name) ?? 0) * 1.2 * 1024 ** 2);
    }
  });

  it('sends every pool through PgBouncer and every migration past it, to the read-write Service', () => {
    // Transaction pooling hands each transaction to any server connection: the migrator's session-level
    // advisory lock and DDL need one connection of their own (docs/decisions.md, 'connection budget in Kubernetes').
    const rw = `${clusterOf().metadata.name}-${poolerOf().spec.type}`;
    for (const w of [...deployments(), ...jobs()]) {
      const env = effectiveEnv(objects(), appOf(w));
      if (!env.has('DATABASE_URL')) continue;
      const pooled = w.kind === 'Deployment';
      expect(postgresTarget(env.get('DATABASE_URL'))?.host, describeObject(w)).toBe(pooled ? poolerOf().metadata.name : rw);
      if (pooled) expect(postgresTarget(env.get('DATABASE_MIGRATION_URL'))?.host, describeObject(w)).toBe(rw);
    }
  });

  it("keeps every pooled connection, at the autoscalers' maximum and a rollout's surge, under the Pooler's max_client_conn", () => {
    let clients = 0;
    for (const d of deployments()) {
      const env = effectiveEnv(objects(), appOf(d));
      if (!env.has('DATABASE_URL')) continue;
      // Its pool, the pruner's one connection (services/runtime/src/db/retention.ts), and auth's erasure ledger's one.
      const process = PROCESSES.find((p) => p.name === d.metadata.name);
      const extra = 1 + (process && readersOf('ERASURE_LEDGER_URL').includes(process) ? 1 : 0);
      clients += peakPods(objects(), d) * (Number(env.get('DATABASE_POOL_MAX') ?? 10) + extra);
    }
    expect(clients).toBeGreaterThan(0);
    // Per instance: either one carries every client while the other restarts.
    expect(clients).toBeLessThanOrEqual(Number(poolerOf().spec.pgbouncer.parameters.max_client_conn));
  });

  it("keeps what reaches Postgres, the Pooler's server connections and the migrations, under max_connections", () => {
    const params = clusterOf().spec.postgresql.parameters;
    const budget = Number(params.max_connections) - Number(params.superuser_reserved_connections ?? 3);
    const pgbouncer = poolerOf().spec.pgbouncer.parameters;
    // PgBouncer makes a pool (default_pool_size + reserve_pool_size) per database a client names, so only its
    // per-role cap bounds the total, and every process connects as the one role.
    const perRole = Number(pgbouncer.max_user_connections);
    expect(perRole, 'the Pooler sets max_user_connections').toBeGreaterThan(0);
    expect(Number(pgbouncer.default_pool_size) + Number(pgbouncer.reserve_pool_size ?? 0)).toBeLessThanOrEqual(perRole);
    let total = poolerOf().spec.instances * perRole;
    // Direct: each migration Job's one connection (the migrator runs one client at a time), and every pod's
    // start-up migration, all at once at the peak (a restart of everything).
    for (const w of [...deployments(), ...jobs()]) {
      const env = effectiveEnv(objects(), appOf(w));
      if (w.kind === 'Job' && env.has('DATABASE_URL')) total += 1;
      if (w.kind === 'Deployment' && env.has('DATABASE_MIGRATION_URL')) total += peakPods(objects(), w);
    }
    expect(total).toBeLessThanOrEqual(budget);
  });

  it("gives the feed timelines' own Redis to the processes that read TIMELINE_REDIS_URL, and only its chart admits them", () => {
    const readers = readersOf('TIMELINE_REDIS_URL').map((p) => p.name);
    expect(readers.length).toBeGreaterThan(0);
    const given = deployments().filter((d) => effectiveEnv(objects(), appOf(d)).has('TIMELINE_REDIS_URL'));
    expect(given.map((d) => d.metadata.name).sort()).toEqual(readers.sort());
    for (const d of given) {
      // redis://<release>-master:6379, and the pod carries the label that release's NetworkPolicy admits.
      const url = new URL(effectiveEnv(objects(), appOf(d)).get('TIMELINE_REDIS_URL') ?? '');
      const release = url.hostname.replace(/-master$/, '');
      expect(release, d.metadata.name).not.toBe(new URL(effectiveEnv(objects(), appOf(d)).get('REDIS_URL') ?? '').hostname.replace(/-master$/, ''));
      expect(existsSync(path.join(K8S, `infra/${release}-values.yaml`)), `deploy/k8s/infra/${release}-values.yaml`).toBe(true);
      const labelled = deployments().filter((w) => w.spec.template.metadata?.labels?.[`${release}-client`] === 'true');
      expect(labelled.map((w) => w.metadata.name).sort()).toEqual(readers.sort());
    }
  });

  it('routes the Ingress to the gateway and has Prometheus scrape every process once', () => {
    const ingress = ofKind<KubeObject & { spec: { rules: Array<{ http: { paths: Array<{ backend: { service: { name: string; port: { name?: string; number?: number } } } }> } }> } }>(objects(), 'Ingress');
    expect(ingress).toHaveLength(1);
    const backends = ingress[0]?.spec.rules.flatMap((r) => r.http.paths.map((p) => p.backend.service));
    expect(backends).toEqual([{ name: 'gateway', port: { name: 'http' } }]);
    const monitors = ofKind<KubeObject & { spec: { selector: LabelSelector; endpoints: Array<{ port: string; path: string }> } }>(objects(), 'ServiceMonitor');
    for (const monitor of monitors) expect(monitor.spec.endpoints.map((e) => e.path)).toEqual(['/metrics']);
    // Every process through exactly one Service and one port: none unscraped, none twice. The gateway's
    // is its operator port, `metrics` (issue 39); everyone else's is `http`, which is never public.
    for (const d of deployments()) {
      const scraped = monitors.flatMap((m) =>
        servicesOf(objects(), d)
          .filter((s) => selects(m.spec.selector, s.metadata.labels))
          .flatMap((s) => m.spec.endpoints.map((e) => `${s.metadata.name}:${e.port}`)),
      );
      expect(scraped, d.metadata.name).toEqual([`${d.metadata.name}:${d.metadata.name === 'gateway' ? 'metrics' : 'http'}`]);
    }
  });

  it('holds no real secret in the repository: the values it renders are placeholders', () => {
    const secret = ofKind<KubeObject & { data?: Record<string, string> }>(objects(), 'Secret').find((s) => s.metadata.name.startsWith('hoptrack-secrets'));
    for (const [key, value] of Object.entries(secret?.data ?? {})) expect(['REPLACE-ME', ''], key).toContain(Buffer.from(value, 'base64').toString());
  });
});

describe('deploy/k8s overlays', () => {
  it.each(OVERLAYS)('%s refuses to render without its secrets.env, so placeholders never reach a cluster', (overlay) => {
    const dir = path.join(workdir, `no-secrets-${overlay}`);
    cpSync(K8S, dir, { recursive: true, filter: (source) => path.basename(source) !== 'secrets.env' });
    expect(() => kustomize(path.join(dir, 'overlays', overlay))).toThrow(/secrets\.env/);
  });

  it('keeps the real secrets.env out of git', () => {
    expect(readRepo('deploy/k8s/.gitignore')).toMatch(/^overlays\/\*\/secrets\.env$/m);
  });

  it('deploys a released image in production, never latest', () => {
    const images = new Set(ofKind<Workload>(render('production'), 'Deployment').map((d) => appOf(d).image));
    expect(images.size).toBe(1);
    expect([...images][0]).toMatch(/:(?!latest$)[\w.-]+$/);
  });

  it('runs more copies in production than on one node, and at least two of everything on one node', () => {
    for (const d of ofKind<Workload>(render('small'), 'Deployment')) {
      expect(minReplicas(render('small'), d), d.metadata.name).toBe(d.metadata.name === 'queue-board' ? 1 : 2);
      const inProduction = named(ofKind<Workload>(render('production'), 'Deployment'), d.metadata.name) as Workload;
      expect(maxReplicas(render('production'), inProduction), d.metadata.name).toBeGreaterThanOrEqual(maxReplicas(render('small'), d));
    }
  });
});

// ---------------------------------------------------------------------------
// The engines' files (deploy/k8s/infra)

/** postgres-cluster.yaml: the CloudNativePG Cluster and the Pooler in front of it. */
function infraManifests(): KubeObject[] {
  return parseObjects(readRepo('deploy/k8s/infra/postgres-cluster.yaml'));
}

describe('deploy/k8s/infra', () => {
  it('runs Postgres as a 3-instance CloudNativePG cluster holding every database of the catalogue', () => {
    const objects = infraManifests();
    expect(objects.map(describeObject)).toEqual(['Cluster hoptrack-db', 'Pooler hoptrack-db-pooler-rw']);
    const cluster = objects[0] as KubeObject & {
      spec: { instances: number; bootstrap: { initdb: { database: string; owner: string; postInitSQL: string[] } }; managed: { roles: Array<{ name: string; createdb?: boolean; superuser?: boolean }> } };
    };
    for (const o of objects) expect(schemaProblems(o), describeObject(o)).toEqual([]);
    expect(cluster.spec.instances).toBe(3);
    const { initdb } = cluster.spec.bootstrap;
    const created = [initdb.database, ...initdb.postInitSQL.map((sql) => /^CREATE DATABASE (\w+) OWNER (\w+)$/.exec(sql)?.[1])];
    expect(created.sort()).toEqual([...new Set(PROCESSES.flatMap((p) => (p.database ? [p.database] : [])))].sort());
    // The role the services connect as (DATABASE_USER) may create its database, and is no superuser.
    const user = effectiveEnv(render('base'), appOf(named(ofKind<Workload>(render('base'), 'Deployment'), 'auth') as Workload)).get('DATABASE_USER');
    expect(cluster.spec.managed.roles).toContainEqual(expect.objectContaining({ name: user, createdb: true, superuser: false }));
    expect(initdb.owner).toBe(user);
  });

  it('puts PgBouncer in front of its primary: transaction pooling that keeps named prepared statements', () => {
    const pooler = poolerOf();
    expect(pooler.spec.cluster.name).toBe(clusterOf().metadata.name);
    expect(pooler.spec.type).toBe('rw');
    expect(pooler.spec.instances).toBeGreaterThanOrEqual(2);
    expect(pooler.spec.pgbouncer.poolMode).toBe('transaction');
    // sessions' feed sends statements by name (PreparedSql): without the tracking (0) transaction mode breaks them.
    expect(readRepo('services/sessions/src/db.ts')).toContain('export interface PreparedSql');
    expect(Number(pooler.spec.pgbouncer.parameters.max_prepared_statements)).toBeGreaterThan(0);
    for (const key of ['max_client_conn', 'default_pool_size', 'max_user_connections']) expect(Number(pooler.spec.pgbouncer.parameters[key]), key).toBeGreaterThan(0);
  });

  it('runs NATS as a 3-server JetStream cluster on disk', () => {
    const values = parse(readRepo('deploy/k8s/infra/nats-values.yaml')) as {
      config: { cluster: { enabled: boolean; replicas: number }; jetstream: { enabled: boolean; fileStore: { enabled: boolean; pvc: { enabled: boolean } } } };
    };
    expect(values.config.cluster).toMatchObject({ enabled: true, replicas: 3 });
    expect(values.config.jetstream).toMatchObject({ enabled: true, fileStore: { enabled: true, pvc: { enabled: true } } });
  });

  it('runs Redis with Sentinel, persisted and never evicting, like docker-compose.yml', () => {
    const values = parse(readRepo('deploy/k8s/infra/redis-values.yaml')) as {
      sentinel: { enabled: boolean; masterService: { enabled: boolean } };
      commonConfiguration: string;
      networkPolicy: { enabled: boolean; allowExternal: boolean };
    };
    expect(values.sentinel).toMatchObject({ enabled: true, masterService: { enabled: true } });
    const compose = parse(readRepo('docker-compose.yml'), { merge: true }) as { services: { redis: { command: string[] } } };
    const flags = compose.services.redis.command;
    // The same persistence as compose and as the Redis fault test runs it (fsync always).
    for (const flag of ['--appendonly', '--appendfsync', '--maxmemory-policy']) {
      const value = flags[flags.indexOf(flag) + 1];
      expect(values.commonConfiguration).toMatch(new RegExp(`^${flag.slice(2)} ${value}$`, 'm'));
    }
    // Every Hoptrack pod carries the client label the chart's NetworkPolicy admits.
    expect(values.networkPolicy).toMatchObject({ enabled: true, allowExternal: false });
    for (const d of ofKind<Workload>(render('base'), 'Deployment')) expect(d.spec.template.metadata?.labels?.['redis-client'], d.metadata.name).toBe('true');
  });

  it("runs the feed timelines' Redis apart: one evicting cache without persistence, like docker-compose.yml's", () => {
    const values = parse(readRepo('deploy/k8s/infra/redis-timelines-values.yaml')) as {
      architecture: string;
      commonConfiguration: string;
      master: { persistence: { enabled: boolean }; resources: { limits: { memory: string } } };
      networkPolicy: { enabled: boolean; allowExternal: boolean };
    };
    expect(values.architecture).toBe('standalone');
    expect(values.master.persistence.enabled).toBe(false);
    const compose = parse(readRepo('docker-compose.yml'), { merge: true }) as { services: { 'redis-timelines': { command: string[] } } };
    const flags = compose.services['redis-timelines'].command;
    for (const flag of ['--appendonly', '--maxmemory-policy']) {
      expect(values.commonConfiguration).toMatch(new RegExp(`^${flag.slice(2)} ${flags[flags.indexOf(flag) + 1]}$`, 'm'));
    }
    // A bound it evicts at, under the container's memory limit (Redis' own overhead beside it).
    const maxmemory = /^maxmemory (\d+)mb$/m.exec(values.commonConfiguration)?.[1];
    expect(maxmemory, 'maxmemory <n>mb').toBeDefined();
    expect(Number(maxmemory) * 1024 ** 2).toBeLessThan(quantity(values.master.resources.limits.memory));
    expect(values.networkPolicy).toMatchObject({ enabled: true, allowExternal: false });
  });

  it('has the Services the base connects to under the release names it documents', () => {
    const env = effectiveEnv(render('base'), appOf(named(ofKind<Workload>(render('base'), 'Deployment'), 'media') as Workload));
    expect(env.get('NATS_URL')).toBe('nats://nats:4222');
    expect(env.get('REDIS_URL')).toBe('redis://redis-master:6379');
    expect(env.get('DATABASE_HOST')).toBe(poolerOf().metadata.name);
    expect(env.get('DATABASE_DIRECT_HOST')).toBe(`${clusterOf().metadata.name}-rw`);
    expect(env.get('S3_ENDPOINT')).toBe('http://minio:9000');
    expect(existsSync(path.join(K8S, 'infra/minio-values.yaml'))).toBe(true);
  });
});
