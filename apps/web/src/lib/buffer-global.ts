// Anchor (inside @strm/mining-client) uses Node's global Buffer; browsers have none. web3.js's own
// Buffer implementation (the `buffer` package, same version) is installed as the global before it loads.
import { Buffer } from 'buffer';

globalThis.Buffer ??= Buffer;
