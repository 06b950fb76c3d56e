import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import ErrorBanner from './ErrorBanner.svelte';
import type { CommandError } from '$lib/bindings/CommandError';
import type { ErrorKind } from '$lib/bindings/ErrorKind';
import { makeCheck } from '../test/fixtures';

function serviceError(kind: ErrorKind, extra: Partial<{ retry_after_secs: number; status: number }> = {}): CommandError {
  return {
    kind: 'service',
    message: `service said ${kind}`,
    error: { kind, message: kind, fields: [], retry_after_secs: extra.retry_after_secs ?? null, status: extra.status ?? null, received_events: null },
  };
}

describe('ErrorBanner', () => {
  afterEach(() => vi.useRealTimers());

  it('explains a 403 as a value that is not an API key', () => {
    render(ErrorBanner, { error: serviceError('not_an_api_key', { status: 403 }) });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The saved value is not an API key.');
    expect(alert).toHaveTextContent('dt_ or dsr_');
    expect(screen.queryByRole('button', { name: /Retry/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Open Settings' })).toHaveAttribute('href', '#/settings');
  });

  it('counts down a 429 and enables Retry at zero', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    const onretry = vi.fn();
    render(ErrorBanner, { error: serviceError('rate_limited', { retry_after_secs: 3 }), onretry });
    expect(screen.getByText('You can try again in 3 s.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry in 3 s' })).toBeDisabled();
    await vi.advanceTimersByTimeAsync(1100);
    expect(screen.getByText('You can try again in 2 s.')).toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(2100);
    const retry = screen.getByRole('button', { name: 'Retry' });
    expect(retry).toBeEnabled();
    retry.click();
    expect(onretry).toHaveBeenCalledOnce();
  });

  it('offers Retry for a network loss', async () => {
    const onretry = vi.fn();
    render(ErrorBanner, { error: serviceError('network'), onretry });
    expect(screen.getByRole('alert')).toHaveTextContent('could not be reached');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onretry).toHaveBeenCalledOnce();
  });

  it('asks before sending again what the service may have billed (a timeout, a cut answer)', async () => {
    for (const kind of ['timeout', 'answer_cut'] as const) {
      const onretry = vi.fn();
      const { unmount } = render(ErrorBanner, { error: serviceError(kind), onretry });
      expect(screen.getByRole('alert')).toHaveTextContent('The service may have billed this request; send again?');
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
      await userEvent.click(screen.getByRole('button', { name: 'Send again' }));
      expect(onretry).toHaveBeenCalledOnce();
      unmount();
    }
    // What billed nothing keeps its plain Retry.
    render(ErrorBanner, { error: serviceError('server_error'), onretry: vi.fn() });
    expect(screen.getByRole('alert')).not.toHaveTextContent('may have billed');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('asks to send anyway on a budget warning, with the numbers', async () => {
    const onconfirm = vi.fn();
    render(ErrorBanner, { error: { kind: 'budget_warning', message: 'near the limit', check: makeCheck('0.006', 'warn').budget }, onconfirm });
    expect(screen.getByRole('alert')).toHaveTextContent('Spent $0.95 of $1.00; this request would bring it to $1.006.');
    await userEvent.click(screen.getByRole('button', { name: 'Send anyway' }));
    expect(onconfirm).toHaveBeenCalledOnce();
  });

  it('says a blocked request was not sent, each sentence once', () => {
    // The pipeline's own message (crates/core/src/pipeline.rs, budget_verdict).
    const message = 'This request would go over your budget. Raise the limit in Spend, or wait for the next period.';
    render(ErrorBanner, { error: { kind: 'budget_blocked', message, check: makeCheck('0.006', 'block').budget } });
    const banner = screen.getByRole('alert');
    expect(banner).toHaveTextContent('Over budget: this request was not sent.');
    expect(banner).toHaveTextContent('Spent $0.95 of $1.00; this request would bring it to $1.006.');
    expect(banner.textContent?.split('Raise the limit in Spend, or wait for the next period.').length).toBe(2);
  });

  it('links to Settings only for what Settings can fix', () => {
    const cases: [CommandError, boolean][] = [
      [serviceError('moved'), true],
      [serviceError('missing_key'), true],
      [{ kind: 'not_configured', message: 'no key' }, true],
      [serviceError('network'), false],
      [serviceError('validation'), false],
      [{ kind: 'disk_full', message: 'disk full' }, false],
    ];
    for (const [error, settings] of cases) {
      const { unmount } = render(ErrorBanner, { error });
      expect(screen.queryByRole('link', { name: 'Open Settings' }) !== null, error.message).toBe(settings);
      unmount();
    }
  });
});
