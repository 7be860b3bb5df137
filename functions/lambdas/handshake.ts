import { type HandshakeDependencies, handshakeFromEnvironment } from '../composition/handshake-dependencies';
import { handshakeRoute } from '../api/handshake/routes';
import type { HttpLambda } from '../http/http-context';

/** The handshake Lambda serves one route, with a function of its own: its latency is the partner's page load. */
export const createHandshakeHandler = (getDependencies: () => Promise<HandshakeDependencies>): HttpLambda =>
  handshakeRoute(getDependencies);

export const handler = createHandshakeHandler(handshakeFromEnvironment);
