// The demo platform's connect panel (local configurations only): the same states as the TikTok and Twitch
// panels (spec §2, §4; shared in ConnectPanel.tsx), with a demo account made in one step and a "live" switch
// instead of a real stream.
import { demoAccountResponseSchema, demoLiveResponseSchema, SERVER_MESSAGES } from '@strm/shared';
import { useState } from 'react';
import { Button, Card, CardTitle, Field, Input } from '../../components/ui/index.ts';
import { apiRequest } from '../../lib/api.ts';
import { emitSocket, type SocketState } from '../../lib/socket.ts';
import {
  ConnectionBanners,
  ConnectionStates,
  LiveMetrics,
  PANEL_MESSAGES,
  useConnection,
  VerifiedState,
} from './ConnectPanel.tsx';

export const STREAMING_MESSAGES = {
  createAccount: 'Create Demo Account',
} as const;

const USERNAME_KEY = 'demoUsername';

async function setDemoLive(on: boolean) {
  await apiRequest('/dev/demo/live', demoLiveResponseSchema, {
    method: 'PUT',
    body: { live: on, viewers: on ? 42 : 0 },
  });
}

export function DemoPanel({
  wallet,
  activeTier,
  live,
}: {
  wallet: string;
  activeTier: string | null | undefined;
  live: SocketState;
}) {
  const [username, setUsername] = useState(() => sessionStorage.getItem(USERNAME_KEY) ?? '');
  const [verified, setVerified] = useState<string | null>(() => sessionStorage.getItem(USERNAME_KEY));
  const [busy, setBusy] = useState(false);
  const connection = useConnection('demo', wallet, live, () => void setDemoLive(false).catch(() => {}));
  const { setConnecting, setError } = connection;

  async function createAccount() {
    setBusy(true);
    setError(null);
    try {
      const answer = await apiRequest('/dev/demo/account', demoAccountResponseSchema, {
        method: 'POST',
        body: { username },
      });
      sessionStorage.setItem(USERNAME_KEY, answer.username);
      setVerified(answer.username);
    } catch (err) {
      setError(err instanceof Error ? err.message : PANEL_MESSAGES.connectFailed('demo'));
    } finally {
      setBusy(false);
    }
  }

  async function connect() {
    connection.reset();
    if (!verified) return setError(SERVER_MESSAGES.demoNotVerified);
    if (!activeTier) return setError(SERVER_MESSAGES.demoNoTier);
    setConnecting(true);
    try {
      await setDemoLive(true);
      emitSocket('join-room', { platform: 'demo', walletId: wallet });
      emitSocket('start-stream', { platform: 'demo', wallet, username: verified, tier: activeTier });
    } catch {
      setConnecting(false);
      setError(PANEL_MESSAGES.connectFailed('demo'));
    }
  }

  return (
    <Card as="section" aria-labelledby="demo-title" data-testid="demo-panel">
      <CardTitle id="demo-title">Demo Platform</CardTitle>
      <ConnectionStates connection={connection} live={live} username={verified}>
        {verified ? (
          <VerifiedState
            connection={connection}
            live={live}
            username={verified}
            activeTier={activeTier}
            connectLabel={PANEL_MESSAGES.startMining}
            onConnect={() => void connect()}
          />
        ) : (
          <form
            className="flex flex-col gap-3 sm:flex-row sm:items-end"
            onSubmit={(e) => {
              e.preventDefault();
              void createAccount();
            }}
          >
            <Field label="Demo username" className="flex-1">
              <Input value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
            </Field>
            <Button type="submit" disabled={!username.trim() || busy}>
              {STREAMING_MESSAGES.createAccount}
            </Button>
          </form>
        )}
      </ConnectionStates>
      <ConnectionBanners connection={connection} />
      <LiveMetrics connection={connection} live={live} />
    </Card>
  );
}
