// Runs the fake Twitch and TikTok for a product started by hand or by a browser test in another process:
//   pnpm --filter @strm/testing fake-platforms [--twitch-port N] [--tiktok-port N] [--authorize-as LOGIN]
// It prints the environment for the API (one NAME=value a line), then "fake platforms ready".
// Drive them over HTTP: POST {twitch}/_fake/authorize-as {login}; PUT {twitch}/_fake/live {login, live,
// viewers}; PUT {tiktok}/_fake/bio {uniqueId, bio}; PUT {tiktok}/_fake/live {uniqueId, live, viewers}.
import { parseArgs } from 'node:util';
import { FakeTikTok } from './fake-tiktok.ts';
import { FakeTwitch } from './fake-twitch.ts';

const { values } = parseArgs({
  options: {
    'twitch-port': { type: 'string', default: '0' },
    'tiktok-port': { type: 'string', default: '0' },
    'authorize-as': { type: 'string' },
  },
});
const twitch = new FakeTwitch();
const tiktok = new FakeTikTok();
await twitch.start(Number(values['twitch-port']));
await tiktok.start(Number(values['tiktok-port']));
if (values['authorize-as']) twitch.authorizeAs(values['authorize-as']);
for (const [name, value] of Object.entries({ ...twitch.env(), ...tiktok.env() })) {
  process.stdout.write(`${name}=${value}\n`);
}
process.stdout.write('fake platforms ready\n');
const stop = () => void Promise.all([twitch.stop(), tiktok.stop()]).then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
