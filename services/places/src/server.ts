import { runService } from '@hoptrack/runtime';
import { placesService } from './service';

await runService(placesService);
