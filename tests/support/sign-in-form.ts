import { expect } from 'vitest';
import { Browser, findForm, follow, startAuthorization, type Landing, type Transaction } from './auth';

export const WRONG = 'Wrong email or password.';

/** One sign-in page in one browser, submitted again and again as a person (or a script) would. */
export class SignInForm {
  private page: Landing | undefined;
  private transaction: Transaction | undefined;
  private browser = new Browser();

  constructor(private readonly baseUrl: string) {}

  /** The browser, the page it shows and its authorization request: to go on from a page by hand. */
  get current(): { browser: Browser; page: Landing | undefined; transaction: Transaction | undefined } {
    return { browser: this.browser, page: this.page, transaction: this.transaction };
  }

  /** Submits the form; after a sign-in the next attempt starts in a fresh browser (no session). */
  async attempt(credentials: { email: string; password: string }, headers: Record<string, string> = {}): Promise<{ status: number; text: string; signedIn: boolean; retryAfter: string | null }> {
    if (!this.page || this.page.kind !== 'page' || !this.transaction) {
      const started = await startAuthorization(this.browser, this.baseUrl);
      this.page = started.landing;
      this.transaction = started.transaction;
    }
    if (this.page.kind !== 'page') throw new Error('expected the sign-in page');
    const form = findForm(this.page.html, this.page.url, '/login');
    const response = await this.browser.request(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ ...form.fields, ...credentials }).toString(),
    });
    const retryAfter = response.headers.get('retry-after');
    const landing = await follow(this.browser, response, form.action, this.transaction.redirectUri);
    if (landing.kind === 'callback') {
      this.page = undefined;
      this.browser = new Browser();
      return { status: 303, text: '', signedIn: true, retryAfter };
    }
    this.page = landing;
    return { status: landing.status, text: landing.html, signedIn: false, retryAfter };
  }
}

export async function failTimes(form: SignInForm, email: string, times: number, headers: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < times; i += 1) {
    const result = await form.attempt({ email, password: `wrong-${i}` }, headers);
    expect(result.status, `failure ${i + 1} of ${email}`).toBe(400);
    expect(result.text).toContain(WRONG);
  }
}

