import { dataExport, dataExportList, exportParams } from '@hoptrack/proto';
import { authOf, type Authenticate, type ServiceApp } from '@hoptrack/runtime';
import type { DataExports } from '../domain/exports';

/** /api/me/export(s): a copy of everything the person has on Hoptrack (issue 24). */
export function exportRoutes(app: ServiceApp, exports: DataExports, authenticate: Authenticate): void {
  app.post('/api/me/export', { preHandler: authenticate, schema: { response: { 200: dataExport, 202: dataExport } } }, async (request, reply) => {
    const { created, view } = await exports.request(authOf(request).userId, request.id);
    // 202: the job started; 200: one was already being prepared, and this is it.
    return reply.status(created ? 202 : 200).send(view);
  });

  app.get('/api/me/exports', { preHandler: authenticate, schema: { response: { 200: dataExportList } } }, async (request) =>
    exports.list(authOf(request).userId),
  );

  // The zip is media's: the answer sends the client to a signed link that works for minutes.
  app.get('/api/me/export/:id', { preHandler: authenticate, schema: { params: exportParams } }, async (request, reply) => {
    const url = await exports.downloadUrl(authOf(request).userId, request.params.id);
    return reply.header('cache-control', 'no-store').redirect(url, 302);
  });
}
