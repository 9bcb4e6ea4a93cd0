// How a page is judged after a sign-up step, from its texts: "account exists" in several languages (but
// not the "Already have an account? Sign in" help line, nor a site that does not tell), validation
// messages only while the form is still there, "verify your email" pages. Also the name derivation.
import { describe, expect, it } from 'vitest';
import { classifySignupPage } from '../../../../src/main/core/login/signup/signup-judge.js';
import { nameValues } from '../../../../src/main/core/login/signup/signup-filler.js';
import type { SignupPageState } from '../../../../src/main/core/login/signup/signup-page-state.js';

const FORM_TEXTS = ['Create your account', 'Use at least 10 characters.', 'Already have an account? Sign in'];

function page(over: Partial<SignupPageState>): SignupPageState {
  return {
    url: 'http://127.0.0.1/signup',
    readyState: 'complete',
    texts: [],
    errors: [],
    signupForm: true,
    invalidFields: [],
    ...over,
  };
}
const before = page({ texts: FORM_TEXTS });
const formAgain = (message: string, where: 'errors' | 'texts' = 'errors') =>
  page({ texts: [...FORM_TEXTS, message], errors: where === 'errors' ? [message] : [] });

describe('classifySignupPage', () => {
  it.each([
    'An account with this email already exists. Sign in instead.',
    'This email is already registered.',
    'That username is taken.',
    'Email has already been taken',
    'A user with that email exists.',
    'Diese E-Mail-Adresse ist bereits registriert.',
    'Ein Konto mit dieser E-Mail existiert bereits.',
    'Un compte existe déjà avec cette adresse e-mail.',
    'Este correo ya está registrado.',
    'Questo indirizzo email è già registrato.',
    'Este e-mail já está cadastrado.',
    'Пользователь с таким email уже существует',
    'このメールアドレスはすでに登録されています',
  ])('"%s" is an existing account', (message) => {
    expect(classifySignupPage(before, formAgain(message))).toEqual({ kind: 'exists', text: message });
  });

  it('the "Already have an account? Sign in" help line and a site that does not tell are not', () => {
    const help = page({ texts: [...FORM_TEXTS, 'Already registered? Log in'] });
    expect(classifySignupPage(before, help)).toEqual({ kind: 'form' });
    const discreet = page({
      signupForm: false,
      texts: ['Check your email', 'If an account already exists for this address, we sent you a sign-in link instead.'],
    });
    expect(classifySignupPage(before, discreet)).toEqual({ kind: 'verify', text: 'Check your email' });
    // Verifying twice is no conflict.
    const again = page({ signupForm: false, texts: ['Your email address is already verified.'] });
    expect(classifySignupPage(before, again)).toEqual({ kind: 'left' });
  });

  it("a validation message while the form is back is the site's rejection, quoted", () => {
    const weak = 'Password is too weak: use at least 10 characters and avoid common words.';
    expect(classifySignupPage(before, formAgain(weak))).toEqual({ kind: 'rejected', text: weak });
    // Not styled as an error, but worded as one.
    expect(classifySignupPage(before, formAgain('Passwörter stimmen nicht überein', 'texts'))).toEqual({
      kind: 'rejected',
      text: 'Passwörter stimmen nicht überein',
    });
    // The hint that was there before the submit is no message.
    expect(classifySignupPage(before, page({ texts: FORM_TEXTS }))).toEqual({ kind: 'form' });
  });

  it.each([
    'Verify your email',
    'Check your inbox to finish signing up',
    "We've sent you an email with a confirmation link.",
    'Bitte bestätige deine E-Mail-Adresse',
    'Vérifiez votre adresse e-mail',
    'Confirma tu correo electrónico',
  ])('"%s" asks to verify the email', (heading) => {
    const verify = page({ signupForm: false, texts: [heading, 'Wrong address? Start over'] });
    expect(classifySignupPage(before, verify)).toEqual({ kind: 'verify', text: heading });
  });

  it('a page without the form and without a message has been left; an error page is a rejection', () => {
    expect(classifySignupPage(before, page({ signupForm: false, texts: ['Welcome to Northwind, Ada'] }))).toEqual({
      kind: 'left',
    });
    const broken = page({ signupForm: false, texts: ['Something went wrong'], errors: ['Something went wrong'] });
    expect(classifySignupPage(before, broken)).toEqual({ kind: 'rejected', text: 'Something went wrong' });
  });
});

describe('nameValues', () => {
  it('splits a full name and joins first and last names', () => {
    expect(nameValues({ name: 'Ada King Lovelace' })).toEqual({
      first: 'Ada King',
      last: 'Lovelace',
      full: 'Ada King Lovelace',
    });
    expect(nameValues({ first_name: 'Ada', lastName: 'Lovelace' })).toEqual({
      first: 'Ada',
      last: 'Lovelace',
      full: 'Ada Lovelace',
    });
    expect(nameValues({ fullName: 'Cher' })).toEqual({ first: 'Cher', last: undefined, full: 'Cher' });
    expect(nameValues({ company: 'Acme' })).toEqual({ first: undefined, last: undefined, full: undefined });
  });
});
