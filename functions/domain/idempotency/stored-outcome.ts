/** A finished outcome kept for replay; opaque to the domain (the HTTP layer decides what it holds). */
export interface StoredOutcome {
  readonly statusCode: number;
  readonly body: string;
}

export const sameOutcome = (a: StoredOutcome, b: StoredOutcome): boolean =>
  a.statusCode === b.statusCode && a.body === b.body;
