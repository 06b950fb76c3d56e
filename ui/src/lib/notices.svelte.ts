/**
 * The app-wide notice: news that outlives the screen that caused it, shown above every screen
 * until dismissed. Today one kind: an answer shown but not saved because the disk was full.
 */
const state = $state<{ message: string | null }>({ message: null });

/** Read-only view for components: reading it inside a component or $derived tracks changes. */
export const notice = {
  get message() {
    return state.message;
  },
};

export function showNotice(message: string): void {
  state.message = message;
}

export function dismissNotice(): void {
  state.message = null;
}
