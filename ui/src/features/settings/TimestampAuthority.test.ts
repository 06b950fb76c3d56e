import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import TimestampAuthority from './TimestampAuthority.svelte';
import type { AppSettings } from '$lib/bindings/AppSettings';

const settings: AppSettings = {
  baseUrl: null,
  connectTimeoutSecs: 10,
  requestTimeoutSecs: 120,
  streamIdleTimeoutSecs: 60,
  retryAttempts: 3,
  mediaKeepAllArchived: false,
  mediaSizeLimitMb: 100,
  mediaSafeView: true,
  theme: 'system',
  exportFolder: null,
  displayZone: null,
  collectedBy: null,
  tsaUrl: null,
  tsaCertificatePem: null,
};

describe('TimestampAuthority', () => {
  it('offers the public authorities, saves the one picked, and shows each field error beside its field', async () => {
    const sent: { tsaUrl: string | null; certificatePem: string | null }[] = [];
    mockIPC((cmd, args) => {
      if (cmd === 'settings_get') return settings;
      if (cmd === 'stamp_authorities') return [
        { name: 'FreeTSA', url: 'https://freetsa.org/tsr' },
        { name: 'DigiCert', url: 'http://timestamp.digicert.com' },
      ];
      if (cmd === 'stamp_authority_set') {
        const asked = args as { tsaUrl: string | null; certificatePem: string | null };
        sent.push(asked);
        if (asked.certificatePem) {
          throw {
            kind: 'invalid',
            message: '1 field needs changing.',
            fields: [{ field: 'tsaCertificatePem', message: 'This certificate could not be read.' }],
          };
        }
        return { ...settings, tsaUrl: asked.tsaUrl };
      }
      return undefined;
    });
    render(TimestampAuthority);
    const field = await screen.findByLabelText('Timestamp authority');
    expect(field).toHaveValue('');
    expect(screen.getByText(/never the data itself/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'FreeTSA' }));
    expect(field).toHaveValue('https://freetsa.org/tsr');
    expect(screen.getByRole('button', { name: 'FreeTSA' })).toHaveAttribute('aria-pressed', 'true');
    // The one picked is named with what it will see, and the field is described by it.
    const sees = screen.getByText("FreeTSA will see each capture's SHA-256 and when it was asked, never the captured data itself.");
    expect(field.getAttribute('aria-describedby')).toContain(sees.id);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved. Each new capture is sent to this authority to be stamped.')).toBeInTheDocument();
    expect(sent[0]).toEqual({ tsaUrl: 'https://freetsa.org/tsr', certificatePem: null });

    const certificate = screen.getByLabelText("Authority's certificate (optional)");
    await userEvent.type(certificate, 'not a certificate');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This certificate could not be read.')).toBeInTheDocument();
    expect(certificate).toHaveAttribute('aria-invalid', 'true');

    // Another address is named by its host; an unusable one, or none, names nobody.
    await userEvent.clear(field);
    await userEvent.type(field, 'https://tsa.example.org/stamp');
    expect(screen.getByText(/^tsa\.example\.org will see each capture's SHA-256/)).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, 'ftp://tsa.example.org');
    expect(screen.queryByText(/will see each capture's SHA-256/)).not.toBeInTheDocument();
    await userEvent.clear(field);
    expect(screen.queryByText(/will see each capture's SHA-256/)).not.toBeInTheDocument();
  });
});
