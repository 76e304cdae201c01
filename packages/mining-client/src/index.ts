export * from './client.ts';
export * from './errors.ts';
export type { Mining } from './idl/mining.ts';
export { closeConnectionSocket } from './connection.ts';
