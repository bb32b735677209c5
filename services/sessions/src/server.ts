import { runService } from '@hoptrack/runtime';
import { sessionsService } from './service';

await runService(sessionsService);
