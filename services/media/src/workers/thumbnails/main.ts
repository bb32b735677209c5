import { runService } from '@hoptrack/runtime';
import { mediaWorkerService } from './service';

await runService(mediaWorkerService);
