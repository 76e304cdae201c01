// The demo platform's connect panel (local configurations only): the same states as the TikTok and Twitch
// panels (docs/product.md#connect-panels; shared in ConnectPanel.tsx), with a demo account made in one step
// and a "live" switch instead of a real stream.
import { useState } from 'react';
import { Button, Card, CardTitle, Field, Input } from '../../components/ui/index.ts';
import type { SocketState } from '../../lib/socket.ts';
import { useCreateDemoAccount, useSetDemoLive } from './api.ts';
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
  const createAccount = useCreateDemoAccount();
  const { mutateAsync: setDemoLive } = useSetDemoLive();
  const connection = useConnection('demo', wallet, live, () => void setDemoLive(false).catch(() => {}));
  const { setError } = connection;

  function create() {
    setError(null);
    createAccount.mutate(username, {
      onSuccess: (answer) => {
        sessionStorage.setItem(USERNAME_KEY, answer.username);
        setVerified(answer.username);
      },
      onError: (err) => setError(err.message || PANEL_MESSAGES.connectFailed('demo')),
    });
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
            onConnect={() => connection.start(verified, activeTier, () => setDemoLive(true))}
          />
        ) : (
          <form
            className="flex flex-col gap-3 sm:flex-row sm:items-end"
            onSubmit={(e) => {
              e.preventDefault();
              create();
            }}
          >
            <Field label="Demo username" className="flex-1">
              <Input value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
            </Field>
            <Button type="submit" disabled={!username.trim() || createAccount.isPending}>
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
