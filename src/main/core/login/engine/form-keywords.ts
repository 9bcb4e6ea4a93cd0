/**
 * Keyword patterns used by the in-page heuristics. They are passed into the page as strings
 * (functions run by `frame.evaluate` cannot close over module scope) and compiled there with "i".
 * Multilingual on purpose: real sites are not all English.
 */
const ERROR_WORDS = String.raw`incorrect|invalid|wrong|unknown|bad|not valid|not correct|isn.?t (right|correct|valid)|not recogni[sz]ed|does ?n.?o?t (match|exist)|do not match|didn.?t match|not found|failed|falsch|ungültig|fehlgeschlagen|incorrect[ao]?|inválid[ao]|no coincide|erroné|invalide|incorreta|errat[ao]|non valid[ao]|неверн|正しくありません|正しくない|間違|誤り|失敗|無効|错误|不正确|失败|无效|잘못|올바르지|실패`;
const CREDENTIAL_NOUNS = String.raw`password|passcode|username|user ?name|user id|credential|login|log-in|sign.?in|e-?mail|account|details|combination|passwort|kennwort|benutzername|konto|contraseña|usuario|cuenta|mot de passe|identifiant|compte|senha|utente|пароль|логин|ユーザー|パスワード|アカウント|用户名|密码|账号|帳號|아이디|비밀번호|계정`;
/** Error text that is clearly about the credentials: decisive even when the form is gone. */
const STRONG_ERROR = String.raw`(${ERROR_WORDS})[^.!?\n]{0,50}(${CREDENTIAL_NOUNS})|(${CREDENTIAL_NOUNS})[^.!?\n]{0,50}(${ERROR_WORDS})|authentication failed|bad credentials|access denied|no account (found|with)|could.?n.?t find (your|an|that) account`;

export const KEYWORDS = {
  username: String.raw`user|login|e-?mail|\bmail|identifier|\bident|account|acct|benutzer|nutzer|anmeldename|usuario|correo|utilisateur|identifiant|courriel|utente|gebruiker|użytkownik|логин|почт|пользовател|ユーザー|メール|用户|邮箱|帐号|账号|member|customer|client.?id|handle|nick|phone|mobile|\bid\b|username`,
  password: String.raw`pass|pwd|kennwort|passwort|contrase|senha|parola|wachtwoord|hasło|пароль|密码|パスワード|\bpin\b`,
  search: String.raw`search|query|\bq\b|suche|buscar|busca|recherche|cerca|zoek|поиск|検索|搜索`,
  newsletter: String.raw`newsletter|subscri|mailing.?list|stay (up to date|informed)|get (the latest|updates)|abonn|suscrib|iscriviti alla`,
  signup: String.raw`sign.?up|register|registration|create (an? |your |new |free )?([\w-]+ ){0,2}account|open (an? )?account|new account|join( now| us| free|$)|get started|start (your )?(free|trial)|free trial|try (it )?(for )?free|registr|regístr|crear cuenta|inscri|konto erstellen|cadastr|créer un compte|abonnieren|新規登録|会員登録|アカウント(を)?作成|注册|회원가입`,
  confirm: String.raw`confirm|repeat|retype|re-?enter|again|verify|new.?pass|bestätig|wiederhol|confirmar|repetir|confirmer|ripeti|nuova`,
  login: String.raw`log.?in|sign.?in|log.?on|anmeld|einlogg|iniciar sesi|inicia sesi|ingresar|entrar|acceder|connexion|se connecter|connecter|accedi|accesso|inloggen|aanmelden|zaloguj|войти|вход|ログイン|サインイン|ログオン|登录|登入|로그인|authenticate|continue with password|member area|sign me in`,
  next: String.raw`next|continue|proceed|weiter|siguiente|continuar|suivant|continuer|avanti|prosegui|volgende|dalej|далее|продолжить|次へ|下一步|다음|submit|go\b|enter|arrow_?(forward|right)|chevron_?right|→|›|»|➔`,
  forgot: String.raw`forgot|reset|lost|trouble|can.?t access|vergessen|olvid|oubli|dimenticat|recover`,
  remember: String.raw`remember|keep me|stay (signed|logged)|angemeldet bleiben|recordar|se souvenir|ricordami`,
  oauth: String.raw`with (google|apple|facebook|github|microsoft|twitter|linkedin|gitlab|sso|saml|passkey)|\bsso\b|single sign|passkey|magic link|email me a link|send.*link`,
  cancel: String.raw`cancel|back|close|dismiss|show|hide|reveal|toggle|clear|visibility|visible|\beye\b|unmask|abbrechen|zurück|anzeigen|cancelar|mostrar|annuler|afficher|annulla|mostra|表示|显示|보기`,
  /** A control that shows or hides the password (never the submit): its name, class or id. */
  fieldToggle: String.raw`show|hide|reveal|toggle|visibility|visible|\beye\b|unmask|peek|anzeigen|mostrar|afficher|mostra|表示|显示|보기`,
  /** A control only a signed-in page has. */
  logout: String.raw`log ?out|sign ?out|log ?off|sign ?off|abmelden|ausloggen|cerrar sesi|salir|déconnexion|se déconnecter|esci|uitloggen|afmelden|wyloguj|выйти|ログアウト|サインアウト|退出|登出|注销|로그아웃`,
  /**
   * A signed-in page reporting earlier failed attempts ("1 failed login attempt since your last
   * login"): a notice, not the verdict on this login.
   */
  attemptReport: String.raw`\d+ (failed|unsuccessful|invalid|bad) (login |log-in |sign-?in |password )?attempts?|(failed|unsuccessful) (login |sign-?in )?attempts? (since|were|have been|has been|was|logged|recorded)|since your last (successful )?(login|log-in|sign-?in|visit)|last (successful |failed )?(login|sign-?in) (was|on|at|from)`,
  otp: String.raw`one.?time|\botp\b|totp|\bmfa\b|2fa|two.?factor|2.?step|verification.?code|security.?code|auth(entication)?.?code|passcode|sms.?code|verify.?code|confirmation.?code|bestätigungscode|código|code de vérification`,
  captcha: String.raw`captcha|recaptcha|hcaptcha|turnstile|arkose|funcaptcha|geetest`,
  error: String.raw`正しくありません|正しくない|間違|誤り|失敗|無効|错误|不正确|失败|无效|잘못|올바르지|실패|incorrect|invalid|wrong|failed|\bexpired|has expired|abgelaufen|expiré|caducad|scadut|doesn.?t exist|does not exist|not exist|no such (user|account)|fail(ure)?\b|not match|doesn.?t match|do not match|does not match|didn.?t match|try again|not recogni[sz]ed|unable to (log|sign)|could.?n.?t (log|sign|find|verify)|could not (log|sign|find|verify)|no account|not found|unknown (user|account|email)|bad credentials|denied|not valid|isn.?t valid|is not correct|isn.?t right|enter (a|the) (correct|valid)|falsch|ungültig|fehlgeschlagen|incorrecta|incorrecto|inválid|no coincide|erroné|invalide|incorreta|inválida|errat[ao]|non valid|неверн|ошибка|errors?\b`,
  strongError: STRONG_ERROR,
  locked: String.raw`\blocked\b|locked out|too many (failed |unsuccessful |invalid |login |log.?in |sign.?in )?(attempts|tries|requests|login|logins)|temporarily (blocked|locked|disabled|suspended|unavailable)|account (has been |is |was )?(suspended|disabled|deactivated|blocked|frozen)|(suspended|deactivated|blocked) account|try again (later|in \d+)|gesperrt|bloqueada|bloqueado|verrouillé|bloccato|заблокирован|ロックされ|锁定|잠겼`,
  /**
   * A lockout named as one possibility of several ("incorrect, or the account is temporarily
   * blocked", "your account may be locked"): what is left without this part decides.
   */
  lockHedge: String.raw`(\bor\b|\bmay\b|\bmight\b|\bcould\b|possibly|perhaps|\bif\b|either|または|もしくは|或)[^.!?。]{0,60}?(\blocked\b|locked out|temporarily (blocked|locked|disabled|suspended|unavailable)|(suspended|disabled|deactivated|blocked|frozen)\b|ロックされ|ブロックされ)`,
  mfa: String.raw`verification code|authenticator|2-?step|two.?(factor|step)|\b2fa\b|\bmfa\b|multi.?factor|one.?time (pass)?code|security code|enter (the|your) code|we(.ve| have)? sent (you )?a code|code (was |has been )?sent|check your (phone|authenticator)|bestätigungscode|zwei.?faktor|código de verificación|verificación en dos|code de vérification|double authentification|codice di verifica`,
  captchaText: String.raw`verify (that )?you.?re (a )?human|verify you are (a )?human|i.?m not a robot|i am not a robot|are you a robot|prove you.?re (a )?human|human verification|complete the (security check|captcha|challenge)|solve the (captcha|puzzle|challenge)|please complete the captcha|unusual traffic|checking (if the site connection is secure|your browser)|security check to continue|(complete|solve|enter|fill in|incorrect|invalid|wrong|failed)[^.]{0,20}captcha|captcha[^.]{0,20}(required|incorrect|invalid|wrong|failed|missing)`,
  /**
   * A site refusing the browser as automated ("automated browser detected", "our bot protection blocked this
   * sign-in", "flagged as a bot"): a bot wall's verdict on the browser, never on the password.
   */
  botWall: String.raw`automated (browser|access|requests?|traffic|software|tools?|scripts?|queries)\b[^.!?]{0,40}(detected|blocked|not (allowed|permitted|supported)|denied|prohibited|refused)|(detected|blocked|denied|refused|not allowed)[^.!?]{0,40}\bautomat(ed|ion)\b|\bbots? (detected|blocked)|(flagged|identified|detected|classified) as (a |an )?(bot|robot|automated)|looks? like (a |an )?(bot|robot|automated)|headless (browser|chrome)|browser automation|(bot|automation) (protection|detection|defen[cs]e) (has )?(blocked|denied|refused|stopped)`,
  /** A post-login interstitial asking whether to keep the session ("Stay signed in?", "Trust this browser?"). */
  staySignedIn: String.raw`(stay|keep me|remain) (signed|logged) in\s?\?|trust this (device|browser|computer)\s?\?|remember (this|me on this) (device|browser|computer)\s?\?|save (your )?login info\s?\?|angemeldet bleiben\s?\?|mantener la sesión iniciada\s?\?|rester connecté\s?\?`,
  /** The affirmative answer to such a question (exact button text). */
  affirm: String.raw`^(yes|yes,? (stay signed in|trust|remember|save)[\w ]*|stay signed in|keep me signed in|trust|trust (this )?(device|browser)|remember|remember (this )?(device|browser)|save|save info|continue|ok|ja|sí|si|oui)$`,
  consentAccept: String.raw`^(accept|accept all|accept all cookies|accept cookies|allow all|allow all cookies|allow cookies|i agree|agree|agree and continue|got it|ok|okay|alle akzeptieren|akzeptieren|aceptar|aceptar todo|aceptar todas|tout accepter|accepter|accetta|accetta tutto|accepteren)$`,
  consentContainer: String.raw`cookie|consent|privacy|gdpr|datenschutz|tracking`,
} as const;

export type KeywordName = keyof typeof KEYWORDS;
export type KeywordSources = Record<KeywordName, string>;
