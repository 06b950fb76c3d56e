import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import SigningIdentity from './SigningIdentity.svelte';
import type { SigningIdentity as Identity } from '$lib/bindings/SigningIdentity';
import type { KeptKey } from '$lib/bindings/KeptKey';
import { fingerprintGroups } from '$lib/fingerprint';
import { modalDialogs } from '../../test/dialog';

modalDialogs();

const first: KeptKey = {
  fingerprint: '3f9a0c1e'.repeat(8),
  publicKeyPem: '-----BEGIN PUBLIC KEY-----\n…\n-----END PUBLIC KEY-----\n',
  createdAt: '2026-11-20T10:00:00Z',
  retiredAt: null,
  retiredBecause: null,
};
const second: KeptKey = { ...first, fingerprint: 'b7d2'.repeat(16), createdAt: '2026-11-27T09:00:00Z' };

describe('fingerprintGroups', () => {
  it('groups the hex digits by four', () => {
    expect(fingerprintGroups('0123456789abcdef')).toBe('0123 4567 89ab cdef');
    expect(fingerprintGroups('3f9a0c1e'.repeat(8)).split(' ')).toHaveLength(16);
  });
});

describe('SigningIdentity', () => {
  it('shows the fingerprint, saves the collector and shows a field error under its field', async () => {
    let sent: string | null | undefined;
    mockIPC((cmd, args) => {
      if (cmd === 'signing_identity') return { current: first, earlier: [], collectedBy: null } satisfies Identity;
      if (cmd === 'signing_collector_set') {
        sent = (args as { collectedBy: string | null }).collectedBy;
        if (sent && sent.length > 120) {
          throw { kind: 'invalid', message: '1 field needs changing.', fields: [{ field: 'collectedBy', message: 'Keep the name under 120 characters.' }] };
        }
        return { current: first, earlier: [], collectedBy: sent } satisfies Identity;
      }
      return undefined;
    });
    render(SigningIdentity);
    expect(await screen.findByTestId('signing-fingerprint')).toHaveTextContent(fingerprintGroups(first.fingerprint));
    expect(screen.getByText('None: this is the installation\'s first key.')).toBeInTheDocument();

    const field = screen.getByLabelText('Collected by');
    await userEvent.type(field, '  Jane Doe  ');
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(sent).toBe('Jane Doe');
    expect(field).toHaveValue('Jane Doe');

    await userEvent.type(field, 'x'.repeat(120));
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Keep the name under 120 characters.')).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });

  it('makes a new key pair only after the dialog is confirmed, and lists the old key', async () => {
    let rotations = 0;
    mockIPC((cmd) => {
      if (cmd === 'signing_identity') return { current: first, earlier: [], collectedBy: 'Jane' } satisfies Identity;
      if (cmd === 'signing_rotate') {
        rotations += 1;
        const retired: KeptKey = { ...first, retiredAt: '2026-11-27T09:00:00Z', retiredBecause: 'rotated' };
        return { current: second, earlier: [retired], collectedBy: 'Jane' } satisfies Identity;
      }
      return undefined;
    });
    render(SigningIdentity);
    await screen.findByTestId('signing-fingerprint');
    await userEvent.click(screen.getByRole('button', { name: 'Make a new key pair…' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    expect(dialog).toHaveTextContent('what it signed still checks out');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel', hidden: true }));
    expect(rotations).toBe(0);

    await userEvent.click(screen.getByRole('button', { name: 'Make a new key pair…' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make a new key pair', hidden: true }));
    expect(rotations).toBe(1);
    expect(await screen.findByTestId('earlier-keys')).toHaveTextContent(fingerprintGroups(first.fingerprint));
    expect(screen.getByTestId('signing-fingerprint')).toHaveTextContent(fingerprintGroups(second.fingerprint));
    expect(screen.getByTestId('earlier-keys')).toHaveTextContent('replaced by a new key');
  });

  it('says why the key could not be read, and reads it again', async () => {
    let fail = true;
    mockIPC((cmd) => {
      if (cmd === 'signing_identity') {
        if (fail) throw { kind: 'keychain', message: 'The system keychain is not available: it may be locked.' };
        return { current: first, earlier: [], collectedBy: null } satisfies Identity;
      }
      return undefined;
    });
    render(SigningIdentity);
    expect(await screen.findByRole('alert')).toHaveTextContent('The signing key could not be read: The system keychain is not available');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('signing-fingerprint')).toBeInTheDocument();
  });
});
