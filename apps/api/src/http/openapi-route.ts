// A REST route declared with its OpenAPI operation, in the routes file that serves it: route() adds the
// operation to the registry the description is built from (http/openapi.ts) and answers the function that
// mounts the route's handlers on a router, at the operation's method and path. The registry fills as the
// route modules load (routes/index.ts imports them all, in the order the description lists them).
import type { RequestHandler, Router } from 'express';
import type { Operation } from './openapi-operation.ts';

const registry: Operation[] = [];

/** Mounts the route's handlers (its middleware, then the handler) on a router. */
export type MountRoute = (router: Router, ...handlers: RequestHandler[]) => void;

/** Declares a route: its operation joins the description; the answer mounts its handlers. */
export function route(operation: Operation): MountRoute {
  const key = `${operation.method.toUpperCase()} ${operation.path}`;
  if (registry.some((op) => op.method === operation.method && op.path === operation.path)) {
    throw new Error(`${key} is declared twice`);
  }
  registry.push(operation);
  return (router, ...handlers) => {
    router[operation.method](operation.path, ...handlers);
  };
}

/** Every declared operation, in declaration order. */
export function declaredOperations(): readonly Operation[] {
  return registry;
}
