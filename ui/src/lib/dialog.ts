/**
 * Modal dialogs: Esc closes the dialog it is pressed in, and nothing else. A detail view's
 * Esc = Back, and History's Esc that closes its detail pane, listen on the window; without this
 * the one key press would close the dialog and also go Back (or shut the pane), losing the
 * user's place. Attach to every modal `<dialog>`: `<dialog {@attach escapeClosesOnlyTheDialog}>`.
 * Esc handlers inside the dialog (a menu it holds) still run first, as the key bubbles to it.
 */
export function escapeClosesOnlyTheDialog(dialog: HTMLDialogElement): () => void {
  const onKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') event.stopPropagation();
  };
  dialog.addEventListener('keydown', onKeydown);
  return () => dialog.removeEventListener('keydown', onKeydown);
}
