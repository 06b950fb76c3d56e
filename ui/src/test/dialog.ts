/**
 * jsdom has <dialog> but not its modal methods: these open it and, closing, fire `close` as a
 * browser does. Call once in a test file that renders a modal dialog.
 */
export function modalDialogs(): void {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
}
