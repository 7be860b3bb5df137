import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { measurePairedLatency } from '../../bench/paired-latency';
import type { BenchRequest, Workload } from '../../bench/workloads';

type Answer = (index: number) => { delayMs: number; status: number } | 'hang up';

const servers: Server[] = [];
const arrivals: string[] = [];

async function server(name: string, answer: Answer): Promise<string> {
  let index = 0;
  const created = createServer((req, res) => {
    arrivals.push(name);
    const reply = answer(index++);
    req.resume();
    if (reply === 'hang up') {
      req.socket.destroy();
      return;
    }
    setTimeout(() => res.writeHead(reply.status, { 'content-type': 'application/json' }).end('{"ok":true}'), reply.delayMs);
  });
  servers.push(created);
  await new Promise<void>((done) => created.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(created.address() as AddressInfo).port}`;
}

const workload = (expectStatus: number): Workload => ({
  endpoint: 'handshake',
  expectStatus,
  next: (): BenchRequest => ({ method: 'POST', path: '/v1/partner/handshake', headers: { 'content-type': 'application/json' }, body: '{}' }),
});

afterEach(async () => {
  arrivals.length = 0;
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

describe('the latency series of the bench', () => {
  it('takes turns request by request, each pair led by the other side than the last', async () => {
    const service = await server('service', () => ({ delayMs: 6, status: 200 }));
    const baseline = await server('floor', () => ({ delayMs: 1, status: 200 }));
    const result = await measurePairedLatency({
      targets: { service, baseline },
      workloads: { service: workload(200), baseline: workload(200) },
      seconds: 0.4,
      stretches: 2,
    });

    expect(arrivals.slice(0, 8)).toEqual(['service', 'floor', 'floor', 'service', 'service', 'floor', 'floor', 'service']);
    expect(result.service.requests).toBe(result.baseline.requests);
    expect(result.service.requests).toBeGreaterThan(10);
    // A service 5 ms slower per request reads as such, whole and in each stretch.
    expect(result.service.p50 - result.baseline.p50).toBeGreaterThan(4);
    expect(result.stretchP50Ratios).toHaveLength(2);
    for (const stretch of result.stretchP50Ratios) expect(stretch).toBeGreaterThan(2);
    expect(result.service.unexpected + result.baseline.unexpected).toBe(0);
  });

  it('counts a wrong status or a dropped connection as unexpected and carries on', async () => {
    const service = await server('service', (index) => ({ delayMs: 0, status: index % 4 === 1 ? 500 : 201 }));
    const baseline = await server('floor', (index) => (index === 2 ? 'hang up' : { delayMs: 0, status: 201 }));
    const result = await measurePairedLatency({
      targets: { service, baseline },
      workloads: { service: workload(201), baseline: workload(201) },
      seconds: 0.3,
      stretches: 5,
    });

    expect(result.baseline.unexpected).toBe(1);
    expect(result.service.unexpected).toBe(Math.floor((result.service.requests + 2) / 4));
    expect(result.baseline.requests).toBeGreaterThan(4);
  });
});
