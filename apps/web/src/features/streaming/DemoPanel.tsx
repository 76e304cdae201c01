// The demo platform's connect panel (local configurations only): the same states as the TikTok and Twitch
// panels (spec §2, §4), with a demo account made in one step and a "live" switch instead of a real stream.
import { SERVER_MESSAGES } from '@strm/shared';
import { useState } from 'react';
import { z } from 'zod';
import { Alert, Badge, Button, Card, CardTitle, Field, Input } from '../../components/ui/index.ts';
import { apiRequest } from '../../lib/api.ts';
import { clearSocketError, emitSocket, type SocketState, useSocketEvent } from '../../lib/socket.ts';

export const STREAMING_MESSAGES = {
  dailyLimitTitle: 'Daily Mining Limit Reached',
  live: 'Live',
  verified: 'Verified',
  disconnect: 'Disconnect',
  connect: 'Start Mining',
  connecting: 'Connecting to Demo Live...',
  createAccount: 'Create Demo Account',
  failedToConnect: 'Failed to connect to Demo Live',
} as const;

const accountAnswer = z.object({ success: z.boolean(), username: z.string() });
const liveAnswer = z.object({ success: z.boolean(), live: z.boolean() });
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
  const [busy, setBusy] = useState(false);
  const [connecting, setConnecting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [limitReached, setLimitReached] = useState<string | null>(null);

  const isLiveHere = live.isLive && live.platform === 'demo';

  async function setDemoLive(on: boolean) {
    await apiRequest('/dev/demo/live', liveAnswer, {
      method: 'PUT',
      body: { live: on, viewers: on ? 42 : 0 },
    });
  }

  function leave() {
    emitSocket('leave-room', { platform: 'demo', walletId: wallet });
    emitSocket('stop-stream', { platform: 'demo', wallet });
    void setDemoLive(false).catch(() => {});
  }

  useSocketEvent('stream-started', () => setConnecting(false));
  // Errors while connecting are this panel's; others belong to whoever asked.
  const fail = (message: string) => {
    if (!connecting) return;
    setConnecting(false);
    if (message.includes('Daily mining limit reached')) setLimitReached(message);
    else setError(message);
  };
  useSocketEvent('error', ({ message }) => fail(message));
  useSocketEvent('room-error', ({ message }) => fail(message));
  useSocketEvent('dailyLimitReached', ({ message }) => {
    setConnecting(false);
    setLimitReached(message || SERVER_MESSAGES.dailyLimitReached);
  });
  useSocketEvent('rate-increased', () => {
    if (!isLiveHere) return;
    leave();
    setInfo(SERVER_MESSAGES.rateIncreased);
  });
  useSocketEvent('maintenance-starting', () => {
    if (isLiveHere) leave();
  });

  async function createAccount() {
    setBusy(true);
    setError(null);
    try {
      const answer = await apiRequest('/dev/demo/account', accountAnswer, {
        method: 'POST',
        body: { username },
      });
      sessionStorage.setItem(USERNAME_KEY, answer.username);
      setVerified(answer.username);
    } catch (err) {
      setError(err instanceof Error ? err.message : STREAMING_MESSAGES.failedToConnect);
    } finally {
      setBusy(false);
    }
  }

  async function connect() {
    setError(null);
    setInfo(null);
    setLimitReached(null);
    clearSocketError();
    if (!verified) return setError(SERVER_MESSAGES.demoNotVerified);
    if (!activeTier) return setError(SERVER_MESSAGES.demoNoTier);
    setConnecting(true);
    try {
      await setDemoLive(true);
      emitSocket('join-room', { platform: 'demo', walletId: wallet });
      emitSocket('start-stream', { platform: 'demo', wallet, username: verified, tier: activeTier });
    } catch {
      setConnecting(false);
      setError(STREAMING_MESSAGES.failedToConnect);
    }
  }

  return (
    <Card as="section" aria-labelledby="demo-title" data-testid="demo-panel">
      <CardTitle id="demo-title">Demo Platform</CardTitle>
      {live.maintenance ? (
        <Alert tone="warning">{SERVER_MESSAGES.maintenanceActive}</Alert>
      ) : limitReached ? (
        <Alert tone="warning" title={STREAMING_MESSAGES.dailyLimitTitle}>
          {limitReached}
        </Alert>
      ) : isLiveHere ? (
        <div className="flex flex-wrap items-center gap-3">
          <span className="font-medium text-white">{verified}</span>
          <Badge tone="success">{STREAMING_MESSAGES.live}</Badge>
          <Button variant="secondary" onClick={leave}>
            {STREAMING_MESSAGES.disconnect}
          </Button>
        </div>
      ) : connecting ? (
        <p className="text-slate-300">{STREAMING_MESSAGES.connecting}</p>
      ) : verified ? (
        <div className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center gap-3">
            <span className="font-medium text-white">{verified}</span>
            <Badge tone="accent">{STREAMING_MESSAGES.verified}</Badge>
          </div>
          {!activeTier && <Alert tone="warning">{SERVER_MESSAGES.demoNoTier}</Alert>}
          <div>
            <Button disabled={!activeTier || connecting} onClick={() => void connect()}>
              {STREAMING_MESSAGES.connect}
            </Button>
          </div>
        </div>
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
      {error && !limitReached && (
        <Alert tone="error" className="mt-3">
          {error}
        </Alert>
      )}
      {info && !limitReached && (
        <Alert tone="info" className="mt-3">
          {info}
        </Alert>
      )}
      {live.roomData && isLiveHere && (
        <p className="mt-3 text-sm text-slate-400">Viewers: {live.roomData.viewers}</p>
      )}
    </Card>
  );
}
