// The streamer's time zone through the real endpoints: GET /streamer says whether a zone was ever set, so
// the web app can send the browser's at first sign-in; that first setting is not counted as a change.
import { streamerResponseSchema, timezoneResponseSchema } from '@strm/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/sign-in.ts';
import { grantAccess, startTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('the time zone at first sign-in', () => {
  it('GET /streamer says a new streamer never set one; the first PUT sets it without counting a change', async () => {
    t.clock.set(new Date('2026-03-01T10:00:00Z'));
    const user = await signIn(t.app);
    await grantAccess(t.prisma, user.wallet);
    const read = async () => {
      const res = await request(t.app).get('/api/v1/streamer').query({ wallet: user.wallet }).set(user.auth);
      expect(res.status).toBe(200);
      return streamerResponseSchema.parse(res.body).streamer;
    };
    const put = (timezone: string) =>
      request(t.app).put('/api/v1/streamer/timezone').set(user.auth).send({ timezone });

    expect(await read()).toMatchObject({ timezone: 'UTC', timezoneChangedTimes: 0, timezoneSetAt: null });

    const first = await put('Europe/Paris');
    expect(first.status).toBe(200);
    expect(timezoneResponseSchema.parse(first.body)).toEqual({
      success: true,
      timezone: 'Europe/Paris',
      timezoneChangedTimes: 0,
      timezoneSetAt: '2026-03-01T10:00:00.000Z',
    });
    expect(await read()).toMatchObject({
      timezone: 'Europe/Paris',
      timezoneChangedTimes: 0,
      timezoneSetAt: '2026-03-01T10:00:00.000Z',
    });

    // Choosing the zone already in force changes nothing; then two changes, and the third is refused.
    t.clock.advance(60_000);
    expect((await put('Europe/Paris')).body).toMatchObject({ timezoneChangedTimes: 0 });
    expect((await put('Asia/Tokyo')).body).toMatchObject({
      timezone: 'Asia/Tokyo',
      timezoneChangedTimes: 1,
      timezoneSetAt: '2026-03-01T10:00:00.000Z',
    });
    expect((await put('America/New_York')).body).toMatchObject({ timezoneChangedTimes: 2 });
    const third = await put('UTC');
    expect(third.status).toBe(409);
    expect(third.body).toEqual({ error: 'refused', message: 'Cannot change timezone anymore!' });
    expect(await read()).toMatchObject({ timezone: 'America/New_York', timezoneChangedTimes: 2 });
  });
});
