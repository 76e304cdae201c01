// The Kick adapter's options against the fake Kick, as the suites start it: the fake's client and hosts, a
// minute between polls, webhooks on; `over` changes what a suite needs otherwise.
import type { FakeKick } from '@strm/testing';
import type { KickPlatform } from '../../src/platforms/kick.ts';

type KickOptions = ConstructorParameters<typeof KickPlatform>[0];

export function kickOnFake(fake: FakeKick, over: Partial<KickOptions> = {}): KickOptions {
  return {
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    authBaseUrl: fake.url,
    apiBaseUrl: fake.url,
    redirectUri: 'http://127.0.0.1:3000/callback',
    pollIntervalMs: 60_000,
    httpTimeoutMs: 2000,
    webhooks: true,
    ...over,
  };
}
