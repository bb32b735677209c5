import { Agent, setGlobalDispatcher } from 'undici';

/**
 * Every test file's `fetch` keeps an idle connection for 1 s at most.
 *
 * The gateway and the services close an idle keep-alive connection after 5 s
 * (Node's default, announced as `Keep-Alive: timeout=5`); Node's fetch keeps
 * one until about a second before that. On a loaded machine the test
 * process's timers run late, it sent a POST on a connection the gateway was
 * closing at that moment, and the POST failed with 'other side closed'
 * (a browser test, beside `make dev`). A POST cannot be sent again safely,
 * so the client leaves the server a margin of seconds, not one.
 * (Set for Node's own fetch through undici's global dispatcher.)
 */
setGlobalDispatcher(new Agent({ keepAliveTimeout: 1000, keepAliveMaxTimeout: 1000 }));
