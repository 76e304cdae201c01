// The registration platforms as the admin console names them, and where an applicant's channel is (YouTube
// and Kick beside TikTok and Twitch).
import type { REGISTRATION_PLATFORMS } from '@strm/shared';

type RegistrationPlatform = (typeof REGISTRATION_PLATFORMS)[number];

export const REGISTRATION_PLATFORM_LABELS: Record<RegistrationPlatform, string> = {
  tiktok: 'TikTok',
  twitch: 'Twitch',
  youtube: 'YouTube',
  kick: 'Kick',
};

/** The applicant's channel page, from the username they registered with. */
export function channelUrl(platform: RegistrationPlatform, username: string): string {
  const name = encodeURIComponent(username.trim().replace(/^@/, ''));
  switch (platform) {
    case 'tiktok':
      return `https://www.tiktok.com/@${name}`;
    case 'twitch':
      return `https://www.twitch.tv/${name}`;
    case 'youtube':
      return `https://www.youtube.com/@${name}`;
    case 'kick':
      return `https://kick.com/${name}`;
  }
}
