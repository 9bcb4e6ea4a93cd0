/**
 * Words of sign-up pages, several languages on purpose (real sites are not all English). The field
 * patterns are handed to the in-page scanner as strings (functions run by `frame.evaluate` cannot
 * close over module scope); the page-text patterns are used here, in Node, on texts the page returned.
 */
import { KEYWORDS } from '../engine/form-keywords.js';

/** What a form field is for, by its accessible name (label, placeholder, name, id); compiled with "i". */
export const SIGNUP_FIELD_KEYWORDS = {
  email: String.raw`e-?mail|correo|courriel|posta elettronica|メール|邮箱|почт`,
  username: String.raw`user.?name|\buser\b|\blogin\b|handle|nick|benutzername|usuario|identifiant|nome utente|логин`,
  firstName: String.raw`first.?name|given.?name|forename|vorname|prénom|prenom|^\W*nombre\W*$|имя`,
  lastName: String.raw`last.?name|family.?name|surname|nachname|familienname|apellido|nom de famille|cognome|sobrenome|фамилия`,
  fullName: String.raw`full.?name|your name|display.?name|vollständiger name|nombre completo|nom complet|nome completo|(^|[\s|])name($|[\s|])`,
  /** A "name" that is not the person's. */
  notPersonName: String.raw`company|organi[sz]ation|business|team|workspace|project|site|domain|store|shop|firma|empresa|entreprise|unternehmen|user|account|login|nick|handle|file|card|holder`,
  phone: String.raw`phone|mobile|\btel\b|telefon|teléfono|téléphone|cellulare|celular`,
  /** Checkboxes to tick: terms of service, privacy policy. */
  terms: String.raw`terms|conditions|\bagree|\baccept|privacy|policy|eula|\btos\b|\bagb\b|nutzungsbedingungen|datenschutz|conditions générales|términos|condiciones|termini|condizioni|termos`,
  /** Checkboxes never to tick on the caller's behalf (checked first: "I agree to receive offers" is one). */
  marketing: String.raw`newsletter|marketing|promo|offers|product news|news and|\bnews\b|updat|tips|special|subscri|communications|e-?mails? (about|from)|angebote|werbung|neuigkeiten|publicit|ofertas|novedades|offres|actualités|notizie|offerte|novidades`,
} as const;

export type SignupFieldKeyword = keyof typeof SIGNUP_FIELD_KEYWORDS;

/** The site says the account exists already (decisive: 409 USER_EXISTS). */
export const USER_EXISTS = new RegExp(
  [
    String.raw`already (exists|registered|in use|taken|signed up|associated|linked|been registered|been taken|been used)`,
    // "An account with this email exists" (not "… is already verified": that is no conflict).
    String.raw`(account|user|e-?mail|address|username|user name)[^.!?\n]{0,60}\bexists\b`,
    String.raw`you already have an account|is (already )?taken|user exists|account exists`,
    String.raw`existiert bereits|bereits (registriert|vergeben|verwendet|vorhanden|in verwendung|ein konto)|schon registriert`,
    String.raw`existe déjà|déjà (utilisée?|enregistrée?|inscrite?|prise?|associée?)`,
    String.raw`ya (existe|está (registrad[oa]|en uso)|tiene una cuenta|estás registrad[oa])`,
    String.raw`esiste già|già (esistente|registrat[oa]|in uso|utilizzat[oa])`,
    String.raw`já (existe|está (registrad[oa]|cadastrad[oa]|em uso))|já cadastrad`,
    String.raw`bestaat al|al (geregistreerd|in gebruik)`,
    String.raw`уже (существует|зарегистрирован|используется)`,
    String.raw`既に登録|すでに登録|すでに使用|已被注册|已注册|已存在|已被使用`,
  ].join('|'),
  'i',
);

/** A "verify your email" / "check your inbox" page after the sign-up. */
export const VERIFY_EMAIL = new RegExp(
  [
    String.raw`(verify|confirm|validate|activate) (your |the )?(e-?mail|address|account|registration)`,
    String.raw`check your (e-?mail|inbox|mail|mailbox)`,
    String.raw`we('ve| have)? (just )?(sent|emailed) (you )?(an? |the )?(e-?mail|verification|confirmation|activation|link|message|code)`,
    String.raw`(verification|confirmation|activation) (e-?mail|link|mail|code) (has been |was |is )?(sent|on its way)`,
    String.raw`bestätige (deine|ihre) e-?mail|bestätigen sie ihre e-?mail|bestätigungs-?(e-?mail|link|mail)|prüfe (dein|ihr) (postfach|e-?mail)`,
    String.raw`(vérifie|vérifiez|confirme|confirmez) (votre|ton) (adresse|e-?mail|courriel|compte)|consultez votre (boîte|messagerie)`,
    String.raw`(verifica|confirma) (tu|su) (correo|e-?mail|cuenta|dirección)|revisa tu (correo|bandeja)`,
    String.raw`(verifica|conferma) (la tua|il tuo) (e-?mail|indirizzo|account)|controlla la tua (e-?mail|casella)`,
    String.raw`(verifique|confirme) (seu|o seu) e-?mail`,
    String.raw`メールアドレスを(確認|認証)|验证(您的)?邮箱|确认(您的)?邮箱`,
  ].join('|'),
  'i',
);

/** Validation messages in free text (weak password, missing field, mismatch …), besides the login error words. */
export const SIGNUP_ERROR = new RegExp(
  [
    KEYWORDS.error,
    String.raw`too (short|weak|common|long|simple|easy|guessable)|at least \d+|must (be|contain|include|have|match|not)`,
    String.raw`(is|are) required|required field|can.?t be (blank|empty)|cannot be (blank|empty)|not (strong|allowed|permitted)`,
    String.raw`mismatch|weak|please (enter|provide|choose|use|fill|agree|accept|check|tick)|you must|you need to`,
    String.raw`zu (kurz|schwach|einfach)|mindestens|erforderlich|pflichtfeld|stimmen nicht überein`,
    String.raw`trop (court|faible|simple)|au moins|obligatoire|ne correspondent pas`,
    String.raw`demasiado (corta|débil|simple)|al menos|obligatorio|no coinciden`,
    String.raw`troppo (corta|debole|semplice)|almeno|obbligatorio|non corrispondono`,
    String.raw`muito (curta|fraca)|pelo menos|obrigatório|não coincidem|не совпадают|слишком`,
  ].join('|'),
  'i',
);

/**
 * A question with its answer link is help, not a message: "Already have an account? Sign in",
 * "Didn't get the email? Resend" (the short unpunctuated fragment after it is the link's label).
 */
export function withoutHelp(text: string): string {
  return text
    .replace(/[^.!?]*\?(\s+[^.!?]{1,40}$)?/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
