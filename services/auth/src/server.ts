import { runService } from '@hoptrack/runtime';
import { authService } from './service';

await runService(authService);
