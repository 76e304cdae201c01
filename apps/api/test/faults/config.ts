// The fault suite's settings (the FAULTS_* environment variables) and what every API process it starts gets.
import { randomBytes } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { issueAuthToken } from '../../src/services/auth/tokens.ts';

const env = process.env;
export const N = Number(env.FAULTS_STREAMERS ?? 20);
export const PG_OUTAGE_S = Number(env.FAULTS_PG_OUTAGE_S ?? 30);
export const CHAIN_STALL_S = Number(env.FAULTS_CHAIN_STALL_S ?? 20);
export const REDIS_OUTAGE_S = Number(env.FAULTS_REDIS_OUTAGE_S ?? 10);
export const RESTART_DELAY_S = Number(env.FAULTS_RESTART_DELAY_S ?? 5);
const ONLY = env.FAULTS_ONLY?.split(',');
export const CHECKPOINT_MS = 5000;
export const UPDATE_MS = 1000;
export const AFTER_MS = 10_000;
export const RECOVERY_LIMIT_S = 10;
export const jwtSecret = randomBytes(24).toString('hex');
/** The suite's admin: it gives the streamers beta access through the API (the server refuses them without). */
const admin = Keypair.generate().publicKey.toBase58();
export const adminToken = issueAuthToken(
  loadConfig({ NODE_ENV: 'test', JWT_SECRET: jwtSecret, DATABASE_URL: 'postgres://x/y' }),
  admin,
  systemClock,
);

export const API_ENV = {
  JWT_SECRET: jwtSecret,
  DEMO_PLATFORM: 'on',
  LOCAL_CHAIN_BUILD: 'off',
  MINING_UPDATE_INTERVAL_MS: String(UPDATE_MS),
  MINING_CHECKPOINT_INTERVAL_MS: String(CHECKPOINT_MS),
  INSTANCE_LEASE_MS: '3000',
  RATE_LIMIT_PER_MINUTE: '100000',
  ADMIN_WALLETS: admin,
  // Every streamer connects (and reconnects through each fault) from this machine.
  SOCKET_HANDSHAKES_PER_MINUTE: '1000000',
};

export const wanted = (name: string) => !ONLY || ONLY.includes(name);
