// The YouTube and Kick connect panels: the same states and messages as Twitch's (loading, daily
// limit reached, live, connecting, verified with Start Mining, the red error and blue info banners,
// maintenance), with the platform's name. Unverified, one button: the platform's consent page opens in a
// popup, /callback hands the code back here, and the server exchanges it (PKCE) and verifies the account it
// names. Without the platform's credentials on the server, the panel says the platform is off.
import { type OAuthCodePlatform, oauthCodeMessageSchema, SERVER_MESSAGES } from '@strm/shared';
import { Alert, Button } from '../../components/ui/index.ts';
import { ApiRequestError } from '../../lib/api.ts';
import { type SocketState, useSocketEvent } from '../../lib/socket.ts';
import { usePlatforms } from './api.ts';
import {
  PANEL_MESSAGES,
  PLATFORM_NAMES,
  PlatformCard,
  useConnection,
  VerifiedState,
} from './ConnectPanel.tsx';
import { useOAuthAuthUrl, useOAuthExchange } from './oauth-api.ts';
import { PLATFORM_MESSAGES } from './PlatformPanel.tsx';
import { messageOf, openPopup, useCallbackMessage } from './popup.ts';

export const OAUTH_PANEL_MESSAGES = {
  connectWith: (p: OAuthCodePlatform) => `Connect With ${PLATFORM_NAMES[p]}`,
  reconnectNeeded: (p: OAuthCodePlatform) =>
    `Your ${PLATFORM_NAMES[p]} authorization has expired or was revoked. Connect with ${PLATFORM_NAMES[p]} again to mine.`,
  urlFailed: (p: OAuthCodePlatform) => `Failed to get ${PLATFORM_NAMES[p]} authorization URL`,
  popupFailed: (p: OAuthCodePlatform) => `Failed to open ${PLATFORM_NAMES[p]} authorization`,
  notConfigured: (p: OAuthCodePlatform) => SERVER_MESSAGES[`${p}NotConfigured`],
  connectedAs: (p: OAuthCodePlatform) =>
    p === 'youtube'
      ? 'Your channel is the one you sign in with on Google.'
      : "Your channel is your Kick account's.",
} as const;

export function OAuthPlatformPanel({
  platform,
  wallet,
  activeTier,
  live,
  configured,
}: {
  platform: OAuthCodePlatform;
  wallet: string;
  activeTier: string | null | undefined;
  live: SocketState;
  /** Whether the server has this platform's credentials (client-config). */
  configured: boolean;
}) {
  const platforms = usePlatforms(wallet);
  const authUrl = useOAuthAuthUrl(platform);
  const exchange = useOAuthExchange(platform, wallet);
  const status = platforms.data?.platforms.find((p) => p.platform === platform);
  const connection = useConnection(platform, wallet, live);
  const { setConnecting, setError, setInfo } = connection;
  const _name = PLATFORM_NAMES[platform];
  const busy = authUrl.isPending || exchange.isPending;
  const { mutateAsync: exchangeCode } = exchange;

  useSocketEvent(`${platform}:not-live`, ({ message }) => {
    setConnecting(false);
    setError(message);
  });

  // The code arrives from our own /callback page, for this platform.
  useCallbackMessage(oauthCodeMessageSchema, (answer) => {
    if (answer.platform !== platform) return;
    setError(null);
    exchangeCode({ code: answer.code, state: answer.state }).then(
      (exchanged) => setInfo(exchanged.message),
      (err: unknown) => setError(messageOf(err, SERVER_MESSAGES.verificationFailed)),
    );
  });

  async function onConnectWith() {
    setError(null);
    setInfo(null);
    let url: string;
    try {
      url = (await authUrl.mutateAsync()).url;
    } catch (err) {
      setError(
        err instanceof ApiRequestError
          ? err.message || OAUTH_PANEL_MESSAGES.urlFailed(platform)
          : PLATFORM_MESSAGES.invalidAuthResponse,
      );
      return;
    }
    if (!openPopup(url, `${platform}-auth`)) setError(OAUTH_PANEL_MESSAGES.popupFailed(platform));
  }

  return (
    <PlatformCard
      platform={platform}
      statusQuery={platforms}
      connection={connection}
      live={live}
      username={status?.username}
    >
      {status?.isVerified && status.username && !status.reconnectNeeded ? (
        <VerifiedState
          connection={connection}
          live={live}
          username={status.username}
          activeTier={activeTier}
          connectLabel={PANEL_MESSAGES.startMining}
          onConnect={() => connection.start(status.username, activeTier)}
        />
      ) : !configured ? (
        <Alert tone="info">{OAUTH_PANEL_MESSAGES.notConfigured(platform)}</Alert>
      ) : (
        <div className="flex flex-col gap-3">
          {status?.reconnectNeeded ? (
            <Alert tone="error">{OAUTH_PANEL_MESSAGES.reconnectNeeded(platform)}</Alert>
          ) : null}
          <p className="text-sm text-slate-300">{OAUTH_PANEL_MESSAGES.connectedAs(platform)}</p>
          <div>
            <Button disabled={busy} onClick={() => void onConnectWith()}>
              {exchange.isPending ? PLATFORM_MESSAGES.verifying : OAUTH_PANEL_MESSAGES.connectWith(platform)}
            </Button>
          </div>
        </div>
      )}
    </PlatformCard>
  );
}
