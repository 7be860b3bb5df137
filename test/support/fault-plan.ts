/**
 * Fault injection at the level of single calls to the stand-ins, shared by several
 * injectors so that "step n" means the nth call a request makes, whichever service it
 * goes to:
 *
 * - `injectAwsFaults(plan, client)`: AWS SDK middleware on a client (the stack's own, or
 *   a dedicated one passed through DependencyOverrides). It sits in the `initialize`
 *   step, above the SDK's retry middleware, so one injected fault is one failed call as
 *   the service sees it (what a Lambda sees once the SDK has given up, or when it dies).
 * - `startStripeFaultProxy(plan)`: an HTTP proxy in front of the Stripe stand-in (point
 *   the stack's STRIPE_API_BASE at it). Faults answer 500 with `Stripe-Should-Retry:
 *   false`, so the Stripe SDK does not retry them either.
 *
 * Modes:
 * - `fail`: the call never reaches the stand-in (an outage, a refused connection);
 * - `lose`: the call is applied, then its answer is lost (a timeout, a crash right after);
 * - `stall`: the call is held for `stallMs`, then goes through.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';

export type FaultMode = 'fail' | 'lose' | 'stall';

export interface PlannedCall {
  /** `dynamodb`, `sqs`, `secretsmanager`, `stripe`, ... */
  readonly service: string;
  /** e.g. `GetItem`, `TransactWriteItems`, `SendMessage`, `POST /v1/customers`. */
  readonly operation: string;
  /** Table, queue or secret when known (the stack's prefix removed), else ''. */
  readonly target: string;
}

/** Calls without side effects: losing their answer is the same fault as failing them. */
const isRead = (call: PlannedCall): boolean =>
  /^(GetItem|Query|Scan|BatchGetItem|TransactGetItems|GetSecretValue|DescribeSecret)$/.test(call.operation) ||
  (call.service === 'stripe' && call.operation.startsWith('GET '));

/** The modes worth sweeping at a call: `lose` only where the call changes something. */
export const modesFor = (call: PlannedCall, modes: readonly FaultMode[]): FaultMode[] =>
  modes.filter((mode) => mode !== 'lose' || !isRead(call));

export const describeCall = (call: PlannedCall): string =>
  `${call.service}:${call.operation}${call.target ? `(${call.target})` : ''}`;

interface Arming {
  readonly mode: FaultMode;
  readonly matches: (call: PlannedCall, index: number) => boolean;
  remaining: number;
}

class InjectedFault extends Error {
  readonly $fault = 'server';
  readonly $metadata = {};
  constructor(
    name: string,
    message: string,
    readonly injected: FaultMode,
  ) {
    super(message);
    this.name = name;
  }
}

/** Records every call the attached injectors see, and decides which of them fail. */
export class FaultPlan {
  /** Calls since the last `reset`, in order. */
  readonly calls: PlannedCall[] = [];
  /** Calls that were made to fail, lose their answer or stall. */
  readonly injected: { call: PlannedCall; index: number; mode: FaultMode }[] = [];
  private armings: Arming[] = [];
  private suspended = 0;
  /** How long a `stall` holds its call. */
  stallMs = 200;

  constructor(private readonly include: (call: PlannedCall) => boolean = () => true) {}

  /** Forgets recorded calls and disarms everything. */
  reset(): void {
    this.calls.length = 0;
    this.injected.length = 0;
    this.armings = [];
  }

  /** The call with this index (counted from the last `reset`) gets `mode`. */
  atStep(index: number, mode: FaultMode): this {
    this.armings.push({ mode, remaining: 1, matches: (_call, i) => i === index });
    return this;
  }

  /** The next `times` calls matching `predicate` get `mode`. */
  when(predicate: (call: PlannedCall) => boolean, mode: FaultMode, times = 1): this {
    this.armings.push({ mode, remaining: times, matches: (call) => predicate(call) });
    return this;
  }

  /** Each matching call independently gets `mode` with probability `rate` (seeded, so runs repeat). */
  randomly(predicate: (call: PlannedCall) => boolean, mode: FaultMode, rate: number, seed = 1): this {
    let state = seed >>> 0 || 1;
    const next = () => {
      // xorshift32: deterministic, good enough to pick calls.
      state ^= state << 13;
      state >>>= 0;
      state ^= state >>> 17;
      state ^= state << 5;
      state >>>= 0;
      return state / 0x1_0000_0000;
    };
    this.armings.push({
      mode,
      remaining: Number.POSITIVE_INFINITY,
      matches: (call) => predicate(call) && next() < rate,
    });
    return this;
  }

  disarm(): void {
    this.armings = [];
  }

  /**
   * Runs the test's own calls (a driver inspecting state between steps) outside the
   * plan: not recorded, never faulted. Only for code the test awaits sequentially.
   */
  async outside<T>(run: () => Promise<T>): Promise<T> {
    this.suspended += 1;
    try {
      return await run();
    } finally {
      this.suspended -= 1;
    }
  }

  /** Called by injectors for every call; returns what to do with it. */
  decide(call: PlannedCall): FaultMode | undefined {
    if (this.suspended > 0 || !this.include(call)) return undefined;
    const index = this.calls.length;
    this.calls.push(call);
    for (const arming of this.armings) {
      if (arming.remaining > 0 && arming.matches(call, index)) {
        arming.remaining -= 1;
        this.injected.push({ call, index, mode: arming.mode });
        return arming.mode;
      }
    }
    return undefined;
  }

  trace(): string[] {
    return this.calls.map(describeCall);
  }
}

interface SdkClient {
  readonly middlewareStack: {
    add(middleware: unknown, options: Record<string, unknown>): void;
    remove(name: string): boolean;
  };
  readonly config: { serviceId?: string };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A table, queue or secret name without the stack's prefix, ids generalized so traces compare across runs. */
const shortTarget = (value: unknown, prefix?: string): string => {
  if (typeof value !== 'string') return '';
  const last = value.split('/').pop() ?? value;
  return (prefix && last.startsWith(`${prefix}-`) ? last.slice(prefix.length + 1) : last).replace(UUID, '{id}');
};

/** Table names a DynamoDB call touches (TransactWrite/BatchWrite carry them inside). */
function dynamoTargets(input: Record<string, any>, prefix?: string): string {
  if (input.TableName) return shortTarget(input.TableName, prefix);
  const names = new Set<string>();
  for (const item of input.TransactItems ?? []) {
    for (const op of Object.values(item as Record<string, { TableName?: string }>))
      if (op?.TableName) names.add(shortTarget(op.TableName, prefix));
  }
  for (const name of Object.keys(input.RequestItems ?? {})) names.add(shortTarget(name, prefix));
  return [...names].sort().join('+');
}

const SDK_OPERATION: Record<string, string> = {
  // lib-dynamodb's document commands, by the low-level operation they run.
  GetCommand: 'GetItem',
  PutCommand: 'PutItem',
  UpdateCommand: 'UpdateItem',
  DeleteCommand: 'DeleteItem',
  QueryCommand: 'Query',
  ScanCommand: 'Scan',
  TransactWriteCommand: 'TransactWriteItems',
  TransactGetCommand: 'TransactGetItems',
  BatchGetCommand: 'BatchGetItem',
  BatchWriteCommand: 'BatchWriteItem',
};

/**
 * Puts `plan` in front of every call `client` makes. `service` names it in the trace;
 * `prefix` (the stack's resource prefix) is cut from table and queue names. Returns a
 * function that takes the middleware out again.
 */
export function injectAwsFaults(
  plan: FaultPlan,
  client: SdkClient,
  options: { service: string; prefix?: string },
): () => void {
  const name = `faultPlan-${Math.random().toString(36).slice(2)}`;
  client.middlewareStack.add(
    (next: (args: { input: Record<string, any> }) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: { input: Record<string, any> }) => {
        const command = context.commandName ?? 'Unknown';
        const operation = SDK_OPERATION[command] ?? command.replace(/Command$/, '');
        const input = args.input ?? {};
        const target =
          options.service === 'dynamodb'
            ? dynamoTargets(input, options.prefix)
            : shortTarget(input.QueueUrl ?? input.SecretId ?? '', options.prefix);
        const mode = plan.decide({ service: options.service, operation, target });
        if (mode === 'fail') {
          throw new InjectedFault(
            'InternalServerError',
            `injected: ${options.service} ${operation} failed before it was applied`,
            'fail',
          );
        }
        if (mode === 'stall') await sleep(plan.stallMs);
        const result = await next(args);
        if (mode === 'lose') {
          throw new InjectedFault(
            'TimeoutError',
            `injected: the answer of ${options.service} ${operation} was lost after it was applied`,
            'lose',
          );
        }
        return result;
      },
    { step: 'initialize', priority: 'high', name },
  );
  return () => {
    client.middlewareStack.remove(name);
  };
}

export interface StripeFaultProxy {
  /** Give this to the stack as STRIPE_API_BASE. */
  readonly url: string;
  /**
   * Every customer id a `POST /v1/customers` (create) answered, whether or not the
   * answer reached the service, with the idempotency key used: Stripe's side of the story.
   */
  readonly createdCustomers: { readonly id: string; readonly idempotencyKey: string }[];
  close(): Promise<void>;
}

/** An HTTP proxy in front of the Stripe stand-in whose calls go through `plan` (service `stripe`). */
export async function startStripeFaultProxy(plan: FaultPlan): Promise<StripeFaultProxy> {
  const upstream = new URL(inject('standIns').stripeApiBase);
  const createdCustomers: { id: string; idempotencyKey: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '/').split('?')[0] as string;
        // Customer ids in paths vary per call; the trace keeps the operation's shape.
        const operation = `${req.method} ${path.replace(/\/cus_[A-Za-z0-9]+/, '/{id}')}`;
        const mode = plan.decide({ service: 'stripe', operation, target: '' });
        const refuse = () =>
          res
            .writeHead(500, { 'Content-Type': 'application/json', 'Stripe-Should-Retry': 'false' })
            .end(JSON.stringify({ error: { type: 'api_error', message: `injected: ${operation} ${mode}` } }));
        if (mode === 'fail') return refuse();
        if (mode === 'stall') await sleep(plan.stallMs);
        const answer = await forward(upstream, req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks));
        if (req.method === 'POST' && path === '/v1/customers' && answer.status === 200) {
          const id = (JSON.parse(answer.body.toString('utf8')) as { id: string }).id;
          createdCustomers.push({ id, idempotencyKey: String(req.headers['idempotency-key'] ?? '') });
        }
        if (mode === 'lose') return refuse();
        res.writeHead(answer.status, answer.headers).end(answer.body);
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(502).end(String(error));
      });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    createdCustomers,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function forward(
  upstream: URL,
  method: string,
  path: string,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method,
        path,
        headers: { ...headers, host: upstream.host },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const passed: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined && !['transfer-encoding', 'connection', 'content-length'].includes(name))
              passed[name] = value;
          }
          resolve({ status: res.statusCode ?? 502, headers: passed, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A stack whose AWS clients faults can be put in front of. */
interface FaultableStack {
  readonly deps: { readonly aws: { readonly db: SdkClient; readonly sqs: SdkClient } };
  readonly config: { readonly RESOURCE_PREFIX: string };
}

/**
 * `send` with every `service` call that `matches` failing while it runs (a store or queue
 * down, for a 500 scenario). Every call, not the first: the stack's background consumers
 * share the clients and could take a single armed fault before the request does.
 */
export async function whileFailing<T>(
  stack: FaultableStack,
  service: 'dynamodb' | 'sqs',
  matches: (call: PlannedCall) => boolean,
  send: () => Promise<T>,
): Promise<T> {
  const plan = new FaultPlan((call) => call.service === service).when(matches, 'fail', Number.POSITIVE_INFINITY);
  const remove = injectAwsFaults(plan, service === 'dynamodb' ? stack.deps.aws.db : stack.deps.aws.sqs, {
    service,
    prefix: stack.config.RESOURCE_PREFIX,
  });
  try {
    return await send();
  } finally {
    remove();
  }
}
