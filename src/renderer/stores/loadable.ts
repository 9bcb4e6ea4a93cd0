export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** A list fetched from the app, with its loading state. */
export interface Loadable<T> {
  status: LoadStatus;
  data: T;
  error: string | null;
}

export const initialLoadable = <T>(data: T): Loadable<T> => ({ status: 'idle', data, error: null });
