import { runService } from '@hoptrack/runtime';
import { messagingService } from './service';

await runService(messagingService);
