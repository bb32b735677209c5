import { runService } from '@hoptrack/runtime';
import { notificationsService } from './service';

await runService(notificationsService);
