/** The time, as the service sees it: tests pass a fixed one to cross midnights and time zones. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
