import { runService } from '@hoptrack/runtime';
import { socialGraphService } from './service';

await runService(socialGraphService);
