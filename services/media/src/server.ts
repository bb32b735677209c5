import { runService } from '@hoptrack/runtime';
import { mediaService } from './service';

await runService(mediaService);
