import type { ZodError } from 'zod';

/**
 * The one error type: an HTTP status, a stable code and the message a user may see. Free of Express
 * types so services can throw it; `http/error-handler.ts` maps it to `{ error, message }`.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Sent as Retry-After (e.g. when a platform limits our requests). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  static badRequest(message: string, code = 'bad_request') {
    return new AppError(400, code, message);
  }
  static unauthorized(message = 'Authentication required', code = 'unauthorized') {
    return new AppError(401, code, message);
  }
  static forbidden(message = 'Not allowed', code = 'forbidden') {
    return new AppError(403, code, message);
  }
  static notFound(message = 'Not found', code = 'not_found') {
    return new AppError(404, code, message);
  }
  static conflict(message: string, code = 'conflict') {
    return new AppError(409, code, message);
  }
  static unavailable(message: string, code = 'unavailable') {
    return new AppError(503, code, message);
  }
}

/** The first issue of a zod error as one line a user can read. */
export function validationMessage(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const path = issue.path.join('.');
  // A message that already names its field ("Platform username is required") is shown as it is.
  const field = String(issue.path.at(-1) ?? '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return path && !issue.message.toLowerCase().includes(field) ? `${path}: ${issue.message}` : issue.message;
}
