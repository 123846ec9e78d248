import { isEmailLinkNotice, type EmailLinkNotice } from '../../src/domain/emailLinks';
import { html, renderPage, SafeHtml, type RenderedPage } from './html';
import type { OutboxMessage } from './mailer';
import { MIN_PASSWORD_LENGTH } from './password-policy';

const NEW_PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters, and not one of the most common passwords.`;

/**
 * The provider's own pages: sign in, sign up, password reset, email verification, sign out, errors
 * and the development outbox. Server-rendered, no script except the sign-out auto-submit.
 */
interface PageContext {
  brand: string;
  /** path prefix of the provider, e.g. '/idp' */
  basePath: string;
  /** the application's URL, where "continue" links lead */
  appUrl: string;
}

export type FieldErrors = Partial<Record<'name' | 'email' | 'password', string>>;

interface FieldOptions {
  name: string;
  label: string;
  type: 'email' | 'password' | 'text';
  value?: string | undefined;
  autocomplete: string;
  error?: string | undefined;
  hint?: string | undefined;
  minLength?: number;
  autofocus?: boolean;
}

function field(options: FieldOptions): SafeHtml {
  const id = `field-${options.name}`;
  const describedBy = [options.hint ? `${id}-hint` : '', options.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
<label for="${id}">${options.label}</label>
<input id="${id}" name="${options.name}" type="${options.type}" autocomplete="${options.autocomplete}" required
${options.type === 'password' ? new SafeHtml('') : html` value="${options.value ?? ''}"`}${options.minLength ? html` minlength="${options.minLength}"` : ''}${options.autofocus ? new SafeHtml(' autofocus') : ''}${options.error ? new SafeHtml(' aria-invalid="true"') : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}>
${options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : ''}
${options.error ? html`<p class="field-error" id="${id}-error">${options.error}</p>` : ''}
</div>`;
}

const alert = (message: string | undefined) => (message ? html`<div class="alert" role="alert">${message}</div>` : '');

/** What a mailed link just did, said above the sign-in form (issue 38). */
interface Notice {
  title: string;
  text: string;
}

const noticeBox = (notice: Notice | undefined) =>
  notice ? html`<div class="notice" role="status"><strong class="title">${notice.title}</strong> ${notice.text}</div>` : '';

const LINK_NOTICES: Record<EmailLinkNotice, Notice | undefined> = {
  email_verified: { title: 'Email verified', text: 'Enter your password to continue.' },
  password_changed: { title: 'Password changed', text: 'Sign in with your new password.' },
  sign_in: undefined,
};

/** The notice of the authorization request's `ext-notice` parameter; an unknown one says nothing. */
export const linkNotice = (param: unknown): Notice | undefined => (isEmailLinkNotice(param) ? LINK_NOTICES[param] : undefined);

const invitationNotice = (workspace: string, brand: string): Notice => ({
  title: `You're invited to ${workspace}`,
  text: `Sign in to join it, or create your account if you are new to ${brand}.`,
});

export function createPages(context: PageContext) {
  const { brand, basePath, appUrl } = context;
  const appOrigin = new URL(appUrl).origin;
  const page = (title: string, body: SafeHtml, extra: { script?: string; wide?: boolean } = {}): RenderedPage =>
    renderPage({ title, brand, body, ...extra }, [appOrigin]);
  const interactionPath = (uid: string, step = '') => `${basePath}/interaction/${encodeURIComponent(uid)}${step ? `/${step}` : ''}`;
  const continueLink = html`<p><a class="button" href="${appUrl}">Continue to ${brand}</a></p>`;

  return {
    /**
     * `offerLink`: a refused sign-in offers a mailed one-time link, the way in that no lock holds up.
     * `notice`: what the mailed link that led here did ("Email verified"); `invitedTo`: the workspace
     * of the invitation link that led here, with the way to create an account beside the form.
     */
    signIn({ uid, email, error, offerLink = false, notice, invitedTo }: { uid: string; email?: string | undefined; error?: string | undefined; offerLink?: boolean; notice?: Notice | undefined; invitedTo?: string | undefined }) {
      const linkForm = offerLink
        ? html`<form method="post" action="${interactionPath(uid, 'link-request')}" novalidate>
<input type="hidden" name="email" value="${email ?? ''}">
<p>Or sign in without your password: we email you a one-time link.</p>
<button type="submit">Email me a sign-in link</button>
</form>`
        : '';
      return page(
        'Sign in',
        html`<h1>Sign in</h1>
<p class="lead">to continue to ${brand}</p>
${invitedTo === undefined ? noticeBox(notice) : noticeBox(invitationNotice(invitedTo, brand))}
${alert(error)}
<form method="post" action="${interactionPath(uid, 'login')}" novalidate>
${field({ name: 'email', label: 'Email', type: 'email', value: email, autocomplete: 'username', autofocus: !email })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password', autofocus: Boolean(email) })}
<button type="submit">Sign in</button>
</form>
${linkForm}
${invitedTo === undefined ? '' : html`<p class="or">New to ${brand}?</p><a class="button secondary" href="${interactionPath(uid, 'signup')}">Create your account</a>`}
<div class="links">
<a href="${interactionPath(uid, 'forgot')}">Forgot password?</a>
${invitedTo === undefined ? html`<span>No account? <a href="${interactionPath(uid, 'signup')}">Sign up</a></span>` : ''}
</div>`,
      );
    },

    /** `values.email`: the sign-in's login hint, filled in; `invitedTo`: as on the sign-in page. */
    signUp({ uid, values = {}, errors = {}, error, invitedTo }: { uid: string; values?: { name?: string | undefined; email?: string | undefined }; errors?: FieldErrors; error?: string; invitedTo?: string | undefined }) {
      const hasErrors = Object.keys(errors).length > 0;
      return page(
        'Sign up',
        html`<h1>Create your account</h1>
<p class="lead">for ${brand}</p>
${invitedTo === undefined ? '' : noticeBox(invitationNotice(invitedTo, brand))}
${hasErrors ? alert('Please correct the highlighted fields.') : alert(error)}
<form method="post" action="${interactionPath(uid, 'signup')}" novalidate>
${field({ name: 'name', label: 'Name', type: 'text', value: values.name, autocomplete: 'name', error: errors.name, autofocus: true })}
${field({ name: 'email', label: 'Email', type: 'email', value: values.email, autocomplete: 'email', error: errors.email })}
${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', error: errors.password, hint: NEW_PASSWORD_HINT, minLength: MIN_PASSWORD_LENGTH })}
<button type="submit">Sign up</button>
</form>
<div class="links"><span>Already have an account? <a href="${interactionPath(uid)}">Sign in</a></span></div>`,
      );
    },

    /**
     * The answer to every accepted sign-up, new address or not (the same page, byte for byte, but for
     * the address typed in). "Back to sign in" begins a fresh sign-in from the app (`signInUrl`), which
     * works however long the mail took and wherever its link was opened.
     */
    signUpRequested({ email, signInUrl }: { email: string; signInUrl: string }) {
      return page(
        'Check your email',
        html`<h1>Check your email</h1>
<div class="notice" role="status">We have sent a message to <strong>${email}</strong>. Open the link in it to verify your address, then sign in.</div>
<div class="links"><a href="${signInUrl}">Back to sign in</a></div>`,
      );
    },

    signInLinkSent({ uid, message }: { uid: string; message: string }) {
      return page('Check your email', html`<h1>Check your email</h1><div class="notice" role="status">${message}</div><div class="links"><a href="${interactionPath(uid)}">Back to sign in</a></div>`);
    },

    /** The page of a mailed sign-in link: a button, so that a mail scanner opening the link signs nobody in. */
    signInByLink({ token, email }: { token: string; email: string }) {
      return page(
        'Sign in',
        html`<h1>Sign in</h1>
<p class="lead">as <strong>${email}</strong></p>
<form method="post" action="${basePath}/sign-in-link" novalidate>
<input type="hidden" name="token" value="${token}">
<button type="submit">Sign in</button>
</form>`,
      );
    },

    forgotPassword({ uid, email, error, sentMessage }: { uid: string; email?: string | undefined; error?: string | undefined; sentMessage?: string | undefined }) {
      const body = sentMessage
        ? html`<h1>Check your email</h1>
<div class="notice" role="status">${sentMessage}</div>`
        : html`<h1>Reset your password</h1>
<p class="lead">Enter your email address and we will send you a link to choose a new password.</p>
<form method="post" action="${interactionPath(uid, 'forgot')}" novalidate>
${field({ name: 'email', label: 'Email', type: 'email', value: email, autocomplete: 'email', error, autofocus: true })}
<button type="submit">Send reset link</button>
</form>`;
      return page('Reset your password', html`${body}<div class="links"><a href="${interactionPath(uid)}">Back to sign in</a></div>`);
    },

    resetPasswordForm({ token, error }: { token: string; error?: string | undefined }) {
      return page(
        'Choose a new password',
        html`<h1>Choose a new password</h1>
<form method="post" action="${basePath}/reset-password" novalidate>
<input type="hidden" name="token" value="${token}">
${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', error, hint: NEW_PASSWORD_HINT, minLength: MIN_PASSWORD_LENGTH, autofocus: true })}
<button type="submit">Change password</button>
</form>`,
      );
    },

    invalidLink(what: 'password reset' | 'verification' | 'sign-in' | 'email change') {
      const resend = what === 'verification' ? html`<p><a href="${basePath}/verify/resend">Send a new verification link</a></p>` : '';
      return page('Link expired', html`<h1>This link has expired</h1><p>This ${what} link is invalid, has expired or has already been used.</p>${resend}${continueLink}`);
    },

    resendVerification({ email, error, sentMessage }: { email?: string | undefined; error?: string | undefined; sentMessage?: string | undefined }) {
      const body = sentMessage
        ? html`<h1>Check your email</h1>
<div class="notice" role="status">${sentMessage}</div>`
        : html`<h1>Verify your email address</h1>
<p class="lead">Enter the address you signed up with and we will send you a new verification link. Links sent before stop working.</p>
<form method="post" action="${basePath}/verify/resend" novalidate>
${field({ name: 'email', label: 'Email', type: 'email', value: email, autocomplete: 'email', error, autofocus: true })}
<button type="submit">Send verification link</button>
</form>`;
      return page('Verify your email address', html`${body}${continueLink}`);
    },

    /** The page of a mailed email-change link: a button, so that a mail scanner opening the link changes nothing. */
    confirmEmailChange({ token, newEmail }: { token: string; newEmail: string }) {
      return page(
        'Confirm your new email address',
        html`<h1>Confirm your new email address</h1>
<p class="lead">Use <strong>${newEmail}</strong> for your account from now on.</p>
<form method="post" action="${basePath}/confirm-email" novalidate>
<input type="hidden" name="token" value="${token}">
<button type="submit">Confirm</button>
</form>`,
      );
    },

    emailChanged(email: string) {
      return page('Email changed', html`<h1>Email changed</h1><p role="status">Your account's email address is now <strong>${email}</strong>. Sign in with it from now on.</p>${continueLink}`);
    },

    /** The provider's sign-out form, submitted at once: the SDK's logout must not stop at a question. */
    signingOut(form: string) {
      return page(
        'Signing out',
        html`<h1>Signing out…</h1>
${new SafeHtml(form)}
<input type="hidden" form="op.logoutForm" name="logout" value="yes">
<noscript><p>JavaScript is off: press the button to finish signing out.</p></noscript>
<p><button type="submit" form="op.logoutForm">Sign out</button></p>`,
        { script: "document.getElementById('op.logoutForm').submit();" },
      );
    },

    signedOut() {
      return page('Signed out', html`<h1>You are signed out</h1>${continueLink}`);
    },

    error({ title, description }: { title: string; description: string }) {
      return page(title, html`<h1>${title}</h1><p>${description}</p>${continueLink}`);
    },

    outbox(messages: OutboxMessage[]) {
      const items = messages.map(
        (message) => html`<article class="mail">
<h2>${message.subject}</h2>
<p class="meta">To ${message.to} · ${message.createdAt}</p>
<pre>${linkify(message.body)}</pre>
</article>`,
      );
      return page(
        'Outbox',
        html`<h1>Outbox</h1>
<p class="lead">Development only: no SMTP_URL is configured, so mail is kept here instead of being sent. Newest first. Also as <a href="${basePath}/outbox.json">JSON</a>.</p>
${messages.length ? items : html`<p>No mail yet.</p>`}`,
        { wide: true },
      );
    },
  };
}

export type Pages = ReturnType<typeof createPages>;

function linkify(text: string): SafeHtml {
  const parts: SafeHtml[] = [];
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"']+/g)) {
    parts.push(html`${text.slice(last, match.index)}`, html`<a href="${match[0]}">${match[0]}</a>`);
    last = match.index + match[0].length;
  }
  parts.push(html`${text.slice(last)}`);
  return html`${parts}`;
}
