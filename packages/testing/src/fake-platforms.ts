// Runs the fake Twitch and TikTok for a product started by hand or by a browser test in another process:
//   pnpm --filter @strm/testing fake-platforms [--twitch-port N] [--tiktok-port N] [--authorize-as LOGIN]
//     [--youtube-port N] [--kick-port N]
// It prints the environment for the API (one NAME=value a line), then "fake platforms ready".
// Drive them over HTTP: POST {twitch}/_fake/authorize-as {login}; PUT {twitch}/_fake/live {login, live,
// viewers}; PUT {tiktok}/_fake/bio {uniqueId, bio}; PUT {tiktok}/_fake/live {uniqueId, live, viewers};
// POST {youtube}/_fake/authorize-as {handle}; PUT {youtube}/_fake/live {handle, live, viewers};
// POST {kick}/_fake/authorize-as {slug}; PUT {kick}/_fake/live {slug, live, viewers}; PUT {kick}/_fake/webhook-url {url}.
import { parseArgs } from 'node:util';
import { FakeTikTok } from './fake-tiktok.ts';
import { FakeTwitch } from './fake-twitch.ts';
import { FakeKick } from './fake-kick.ts';
import { FakeYouTube } from './fake-youtube.ts';

const { values } = parseArgs({
  options: {
    'twitch-port': { type: 'string', default: '0' },
    'tiktok-port': { type: 'string', default: '0' },
    'authorize-as': { type: 'string' },
    'youtube-port': { type: 'string', default: '0' },
    'kick-port': { type: 'string', default: '0' },
  },
});
const twitch = new FakeTwitch();
const tiktok = new FakeTikTok();
await twitch.start(Number(values['twitch-port']));
await tiktok.start(Number(values['tiktok-port']));
const youtube = new FakeYouTube();
const kick = new FakeKick();
await youtube.start(Number(values['youtube-port']));
await kick.start(Number(values['kick-port']));
if (values['authorize-as']) twitch.authorizeAs(values['authorize-as']);
for (const [name, value] of Object.entries({
  ...twitch.env(),
  ...tiktok.env(),
  ...youtube.env(),
  ...kick.env(),
})) {
  process.stdout.write(`${name}=${value}\n`);
}
process.stdout.write('fake platforms ready\n');
const stop = () =>
  void Promise.all([twitch.stop(), tiktok.stop(), youtube.stop(), kick.stop()]).then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
