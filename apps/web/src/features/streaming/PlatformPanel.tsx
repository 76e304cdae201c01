// The TikTok and Twitch connect panels (docs/product.md#connect-panels): loading, daily limit reached, live,
// connecting, verified (Connect / Start Mining), unverified (username, 'Generate Code' and four steps for
// TikTok, 'Connect With Twitch' for Twitch), verify, red error and blue info banners, maintenance; the states
// they share with the demo panel are in ConnectPanel.tsx.
import { type Platform, SERVER_MESSAGES, twitchAuthMessageSchema } from '@strm/shared';
import { useEffect, useState } from 'react';
import { Button, Field, Input } from '../../components/ui/index.ts';
import { ApiRequestError, authToken } from '../../lib/api.ts';
import { type SocketState, useSocketEvent } from '../../lib/socket.ts';
import {
  useGenerateCode,
  usePlatforms,
  useTwitchAuthUrl,
  useUpdateUsername,
  useVerifyStreamer,
} from './api.ts';
import {
  PANEL_MESSAGES,
  PLATFORM_NAMES,
  PlatformCard,
  useConnection,
  VerifiedState,
} from './ConnectPanel.tsx';
import { messageOf, openPopup, useCallbackMessage } from './popup.ts';

export const PLATFORM_MESSAGES = {
  loadFailed: PANEL_MESSAGES.loadFailed,
  connectTikTok: 'Connect',
  generateCode: 'Generate Code',
  connectWithTwitch: 'Connect With Twitch',
  verifyAccount: 'Verify Account',
  verifying: 'Verifying...',
  generateFailed: 'Failed to generate verification code',
  noAuthToken: 'Authentication token not found',
  twitchUrlFailed: 'Failed to get Twitch authorization URL',
  invalidAuthResponse: 'Invalid response from auth endpoint',
  popupFailed: 'Failed to open Twitch authorization',
  tiktokSteps: [
    'Add the browser extension.',
    'Put the generated code in your TikTok bio.',
    "Click Verify Account: your profile opens in a new tab; press the extension's verify button on that page.",
    'Return here, log out and log back in.',
  ],
} as const;

const usernameRequired: Record<Platform, string> = {
  tiktok: SERVER_MESSAGES.tiktokUsernameRequired,
  twitch: SERVER_MESSAGES.twitchUsernameRequired,
  // Named by the platform when connecting (OAuthPlatformPanel.tsx).
  youtube: SERVER_MESSAGES.youtubeVerifiedByAuthorizing,
  kick: SERVER_MESSAGES.kickVerifiedByAuthorizing,
};

export function PlatformPanel({
  platform,
  wallet,
  activeTier,
  live,
}: {
  platform: Platform;
  wallet: string;
  activeTier: string | null | undefined;
  live: SocketState;
}) {
  const platforms = usePlatforms(wallet);
  const saveName = useUpdateUsername();
  const newCode = useGenerateCode(wallet);
  const verify = useVerifyStreamer(wallet);
  const authUrl = useTwitchAuthUrl();
  const status = platforms.data?.platforms.find((p) => p.platform === platform);
  const [username, setUsername] = useState('');
  const [code, setCode] = useState<string | null>(null);
  // Saving the username is the first step of both 'Generate Code' and 'Connect With Twitch'.
  const busy = saveName.isPending || newCode.isPending || verify.isPending || authUrl.isPending;
  const connection = useConnection(platform, wallet, live);
  const { setConnecting, setError, setInfo } = connection;
  const name = PLATFORM_NAMES[platform];
  const { mutateAsync: verifyAccount } = verify;

  useEffect(() => {
    if (status?.username) setUsername((u) => u || status.username || '');
  }, [status?.username]);

  useSocketEvent('twitch:not-live', ({ message }) => {
    if (platform !== 'twitch') return;
    setConnecting(false);
    setError(message);
  });

  // The Twitch token arrives from our own /callback page only, with type TWITCH_AUTH and a token
  // (docs/product.md#verification).
  useCallbackMessage(
    twitchAuthMessageSchema,
    (answer) => {
      setError(null);
      verifyAccount({
        platform: 'twitch',
        accessToken: answer.access_token,
        accessTokenExp: answer.expires_in,
        state: answer.state,
      }).then(
        (verified) => setInfo(verified.message ?? null),
        (err: unknown) => setError(messageOf(err, SERVER_MESSAGES.verificationFailed)),
      );
    },
    platform === 'twitch',
  );

  async function saveUsername(): Promise<boolean> {
    if (!username.trim()) {
      setError(usernameRequired[platform]);
      return false;
    }
    if (!authToken.get()) {
      setError(PLATFORM_MESSAGES.noAuthToken);
      return false;
    }
    await saveName.mutateAsync({ platform, username: username.trim() });
    return true;
  }

  async function onGenerateCode() {
    setError(null);
    setInfo(null);
    try {
      if (!(await saveUsername())) return;
      const answer = await newCode.mutateAsync();
      if (!answer.success || !answer.verificationCode) throw new Error(answer.message);
      setCode(answer.verificationCode);
      if (answer.message) setInfo(answer.message);
    } catch (err) {
      setError(
        messageOf(err, err instanceof Error && err.message ? err.message : PLATFORM_MESSAGES.generateFailed),
      );
    }
  }

  async function onVerifyTikTok() {
    if (!username.trim()) return setError(usernameRequired.tiktok);
    window.open(
      `https://www.tiktok.com/@${encodeURIComponent(username.trim().replace(/^@/, ''))}`,
      '_blank',
      'noopener',
    );
    setError(null);
    try {
      const answer = await verifyAccount({ platform: 'tiktok', verificationCode: code ?? undefined });
      setCode(null);
      setInfo(answer.message ?? null);
    } catch (err) {
      setError(messageOf(err, SERVER_MESSAGES.verificationFailed));
    }
  }

  async function onConnectWithTwitch() {
    setError(null);
    setInfo(null);
    try {
      if (!(await saveUsername())) return;
      let url: string;
      try {
        url = (await authUrl.mutateAsync()).url;
      } catch (err) {
        setError(
          err instanceof ApiRequestError
            ? err.message || PLATFORM_MESSAGES.twitchUrlFailed
            : PLATFORM_MESSAGES.invalidAuthResponse,
        );
        return;
      }
      if (!openPopup(url, 'twitch-auth')) setError(PLATFORM_MESSAGES.popupFailed);
    } catch (err) {
      setError(messageOf(err, PLATFORM_MESSAGES.twitchUrlFailed));
    }
  }

  return (
    <PlatformCard
      platform={platform}
      statusQuery={platforms}
      connection={connection}
      live={live}
      username={status?.username}
    >
      {status?.isVerified && status.username ? (
        <VerifiedState
          connection={connection}
          live={live}
          username={status.username}
          activeTier={activeTier}
          connectLabel={platform === 'twitch' ? PANEL_MESSAGES.startMining : PLATFORM_MESSAGES.connectTikTok}
          onConnect={() => connection.start(status.isVerified ? status.username : null, activeTier)}
        />
      ) : (
        <div className="flex flex-col gap-3">
          <Field label={`${name} username`}>
            <Input value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
          </Field>
          {platform === 'tiktok' ? (
            <>
              <div>
                <Button disabled={!username.trim() || busy} onClick={() => void onGenerateCode()}>
                  {PLATFORM_MESSAGES.generateCode}
                </Button>
              </div>
              {code && (
                <>
                  <p className="text-sm text-slate-300">
                    Your code:{' '}
                    <code className="rounded bg-slate-800 px-2 py-0.5 font-mono text-white">{code}</code>
                  </p>
                  <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-300">
                    {PLATFORM_MESSAGES.tiktokSteps.map((step) => (
                      <li key={step}>{step}</li>
                    ))}
                  </ol>
                  <div>
                    <Button disabled={busy} onClick={() => void onVerifyTikTok()}>
                      {verify.isPending ? PLATFORM_MESSAGES.verifying : PLATFORM_MESSAGES.verifyAccount}
                    </Button>
                  </div>
                </>
              )}
            </>
          ) : (
            <div>
              <Button disabled={!username.trim() || busy} onClick={() => void onConnectWithTwitch()}>
                {verify.isPending ? PLATFORM_MESSAGES.verifying : PLATFORM_MESSAGES.connectWithTwitch}
              </Button>
            </div>
          )}
        </div>
      )}
    </PlatformCard>
  );
}
