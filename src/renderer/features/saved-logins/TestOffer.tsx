import { useRef } from 'react';
import { useAppStore } from '../../stores/app-store';

/**
 * Right after a save: "Saved" and an offer to test it at once, since a saved login that does not sign in is found
 * out by the first agent that uses it otherwise. Gone once a test of it has started here (Test now, below, shows
 * it); an earlier test of the saved login (before this save) does not count.
 */
export function TestOffer({ id }: { id: string }) {
  const start = useAppStore((s) => s.testSavedLogin);
  const test = useAppStore((s) => s.savedLoginTests[id]);
  const before = useRef(test?.loginId);
  if (test && test.loginId !== before.current) return null;
  return (
    <div className="banner banner-success test-offer" role="status" data-testid="saved-login-test-offer">
      <div>
        <strong>Saved.</strong> <span>Test it now to be sure it signs in (a real login, as you).</span>
      </div>
      <button type="button" className="btn btn-primary btn-small" onClick={() => void start(id)}>
        Test it now
      </button>
    </div>
  );
}
