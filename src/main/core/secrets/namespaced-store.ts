import { deleteMany, getMany, setIfAbsent, setMany, type SecretEntry, type SecretStore } from './secret-store.js';

/** Prefixes every account with this installation's id, so two data dirs never share a secret. */
export class NamespacedSecretStore implements SecretStore {
  constructor(
    private readonly inner: SecretStore,
    private readonly namespace: string,
  ) {}
  get backend() {
    return this.inner.backend;
  }
  private account(name: string) {
    return `${this.namespace}:${name}`;
  }
  get(name: string) {
    return this.inner.get(this.account(name));
  }
  set(name: string, value: string) {
    return this.inner.set(this.account(name), value);
  }
  setIfAbsent(name: string, value: string) {
    return setIfAbsent(this.inner, this.account(name), value);
  }
  delete(name: string) {
    return this.inner.delete(this.account(name));
  }
  setMany(entries: readonly SecretEntry[]) {
    return setMany(
      this.inner,
      entries.map(([name, value]) => [this.account(name), value] as const),
    );
  }
  async getMany(names: readonly string[]) {
    const found = await getMany(
      this.inner,
      names.map((n) => this.account(n)),
    );
    return new Map(names.map((n) => [n, found.get(this.account(n)) ?? null]));
  }
  deleteMany(names: readonly string[]) {
    return deleteMany(
      this.inner,
      names.map((n) => this.account(n)),
    );
  }
  check() {
    return this.inner.check();
  }
  async listAccounts(prefix: string) {
    const own = this.account('');
    return (await this.inner.listAccounts(own + prefix)).map((a) => a.slice(own.length));
  }
}
