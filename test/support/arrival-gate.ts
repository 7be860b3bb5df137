/**
 * Holds the matching calls of an AWS SDK client until `count` of them have arrived, then
 * lets them all go at once: a race forced on every run instead of hoped for. Sits in the
 * `initialize` step, before the request is sent, so every held call reaches the service
 * only after every racer has read whatever it reads first.
 */
type Command = { readonly name: string; readonly input: Record<string, any> };
type SdkClient = { middlewareStack: { add: (...args: any[]) => void; remove: (name: string) => boolean } };

export interface ArrivalGate {
  /** Calls that reached the gate so far. */
  arrived(): number;
  remove(): void;
}

export function holdUntilAll(client: SdkClient, count: number, matches: (command: Command) => boolean): ArrivalGate {
  const name = `arrivalGate-${Math.random().toString(36).slice(2)}`;
  let arrived = 0;
  let open: () => void = () => undefined;
  const allArrived = new Promise<void>((resolve) => (open = resolve));
  client.middlewareStack.add(
    (next: (args: { input: Record<string, any> }) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: { input: Record<string, any> }) => {
        if (matches({ name: context.commandName ?? '', input: args.input ?? {} })) {
          arrived += 1;
          if (arrived === count) open();
          await allArrived;
        }
        return next(args);
      },
    { step: 'initialize', priority: 'high', name },
  );
  return { arrived: () => arrived, remove: () => void client.middlewareStack.remove(name) };
}
