/** A page of a list: at most `limit` rows, after skipping `offset`. */
export interface Page {
  limit: number;
  offset: number;
}
