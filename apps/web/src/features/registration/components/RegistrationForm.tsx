import {
  CONTENT_TYPES,
  REGISTRATION_PLATFORMS,
  type RegistrationRequest,
  registrationRequestSchema,
  STREAMING_FREQUENCIES,
} from '@strm/shared';
import { type FormEvent, useState } from 'react';
import { Alert, Button, Field, Input, Select, Textarea } from '../../../components/ui/index.ts';
import { useSubmitRegistration } from '../api.ts';
import { REGISTRATION_MESSAGES } from '../messages.ts';

type FormState = Record<
  | 'name'
  | 'email'
  | 'platform'
  | 'platform_username'
  | 'discord_username'
  | 'streaming_frequency'
  | 'follower_count'
  | 'content_type'
  | 'project_interest',
  string
>;
type FieldName = keyof FormState;

const EMPTY: FormState = {
  name: '',
  email: '',
  platform: 'tiktok',
  platform_username: '',
  discord_username: '',
  streaming_frequency: '',
  follower_count: '',
  content_type: '',
  project_interest: '',
};

const PLATFORM_LABELS: Record<(typeof REGISTRATION_PLATFORMS)[number], string> = {
  tiktok: 'TikTok',
  twitch: 'Twitch',
  kick: 'Kick',
  youtube: 'YouTube',
};

/**
 * The registration form (docs/product.md#registration-form), validated by the shared schema the server also
 * applies.
 */
export function RegistrationForm({ wallet, onDisconnect }: { wallet: string | null; onDisconnect(): void }) {
  const [form, setForm] = useState<FormState>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const submit = useSubmitRegistration(wallet);

  const set = (name: FieldName) => (event: { target: { value: string } }) => {
    setForm((f) => ({ ...f, [name]: event.target.value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!wallet || submit.isPending) return;
    const request: RegistrationRequest = {
      ...form,
      discord_username: form.discord_username || undefined,
      // Blank choices are sent as missing so the schema names them.
      streaming_frequency: (form.streaming_frequency ||
        undefined) as RegistrationRequest['streaming_frequency'],
      content_type: (form.content_type || undefined) as RegistrationRequest['content_type'],
      platform: form.platform as RegistrationRequest['platform'],
    };
    const parsed = registrationRequestSchema.safeParse(request);
    if (!parsed.success) {
      const next: Partial<Record<FieldName, string>> = {};
      for (const issue of parsed.error.issues) {
        const name = issue.path[0] as FieldName;
        next[name] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    submit.mutate(request);
  };

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="flex flex-col gap-4"
      aria-label={REGISTRATION_MESSAGES.title}
    >
      {submit.isError ? <Alert tone="error">{submit.error.message}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" required error={errors.name}>
          <Input autoComplete="name" value={form.name} onChange={set('name')} />
        </Field>
        <Field label="Email" required error={errors.email}>
          <Input type="email" autoComplete="email" value={form.email} onChange={set('email')} />
        </Field>
        <Field label="Streaming Platform" required error={errors.platform}>
          <Select value={form.platform} onChange={set('platform')}>
            {REGISTRATION_PLATFORMS.map((p) => (
              <option key={p} value={p}>
                {PLATFORM_LABELS[p]}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Platform Username" required error={errors.platform_username}>
          <Input value={form.platform_username} onChange={set('platform_username')} />
        </Field>
        <Field label="Discord Username" hint="Optional" error={errors.discord_username}>
          <Input value={form.discord_username} onChange={set('discord_username')} />
        </Field>
        <Field label="Streaming Frequency" required error={errors.streaming_frequency}>
          <Select value={form.streaming_frequency} onChange={set('streaming_frequency')}>
            <option value="">Select frequency</option>
            {STREAMING_FREQUENCIES.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Follower Count" required error={errors.follower_count}>
          <Input
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            value={form.follower_count}
            onChange={set('follower_count')}
          />
        </Field>
        <Field label="Content Type" required error={errors.content_type}>
          <Select value={form.content_type} onChange={set('content_type')}>
            <option value="">Select content type</option>
            {CONTENT_TYPES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Field label="Why are you interested in this project?" required error={errors.project_interest}>
        <Textarea value={form.project_interest} onChange={set('project_interest')} />
      </Field>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onDisconnect}>
          {REGISTRATION_MESSAGES.disconnect}
        </Button>
        <Button type="submit" disabled={submit.isPending}>
          {submit.isPending ? REGISTRATION_MESSAGES.submitting : REGISTRATION_MESSAGES.submit}
        </Button>
      </div>
    </form>
  );
}
