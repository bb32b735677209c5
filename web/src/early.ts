import { startEarlyRequests } from './lib/earlyRequests';

/**
 * The first script index.html runs, bundled alone (vite.config.ts, earlyScript):
 * it starts the signed-in first screen's /api/me and feed calls while the
 * browser is still fetching and evaluating the app's JavaScript, which then
 * takes their answers (lib/earlyRequests.ts).
 */
startEarlyRequests();
