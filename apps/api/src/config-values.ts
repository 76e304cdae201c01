// The kinds of value the API's environment variables take (config.ts, oauth-platforms-config.ts): each
// refuses a bad value with a message naming what it must be.
import proxyaddr from 'proxy-addr';
import { z } from 'zod';

export const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL');
export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
export const wsUrl = z.url({ protocol: /^wss?$/, error: 'must be a ws(s) URL' });
export const csv = <T extends z.ZodType<string, string>>(item: T) =>
  z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item));
export const origin = z
  .url({ error: 'must be a list of origins such as http://127.0.0.1:3000' })
  .transform((u) => new URL(u).origin);
export const port = z.coerce.number().int().min(0).max(65_535);
export const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);
export const onOff = z.enum(['on', 'off'], { error: 'must be on or off' });
export const redisUrl = z.string().regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL');
/**
 * Express's `trust proxy`: which hops' X-Forwarded-For to believe for a client's address (rate limits).
 * true/false, a number of hops, or addresses, subnets and the names loopback, linklocal, uniquelocal.
 */
export const trustProxy = z
  .string()
  .trim()
  .transform((v, ctx): boolean | number | string[] => {
    if (v === 'true' || v === 'false') return v === 'true';
    if (/^\d+$/.test(v)) return Number(v);
    const list = v
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    try {
      proxyaddr.compile(list);
    } catch (err) {
      ctx.addIssue({
        code: 'custom',
        message: `must be true, false, a number of hops or a list of addresses/subnets (${(err as Error).message})`,
      });
      return z.NEVER;
    }
    return list;
  });
export const perSecond = z.coerce.number().positive().max(10_000);
