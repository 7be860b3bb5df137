/** A queue the domain sends JSON messages to; `delaySeconds` at most 900 (the SQS limit). */
export interface MessageQueue<T> {
  send(message: T, delaySeconds: number): Promise<void>;
}
