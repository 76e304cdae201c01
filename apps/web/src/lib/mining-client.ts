// The mining program's client for the browser, loaded on demand with the first wallet transaction. The
// Buffer global must exist before Anchor evaluates, hence the import order.
import './buffer-global.ts';

export * from '@strm/mining-client';
