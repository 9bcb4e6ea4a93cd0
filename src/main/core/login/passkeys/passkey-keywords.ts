/**
 * Words of a control that starts a passkey sign-in or creates a passkey, in the style of
 * engine/form-keywords.ts: strings compiled in the page with "i". Multilingual on purpose.
 */
export const PASSKEY_KEYWORDS = {
  /** A passkey, security key or WebAuthn named on a control. */
  passkey: String.raw`pass.?key|security.?key|webauthn|fido|face id|touch id|windows hello|biometric|zugangsschlüssel|hauptschlüssel|sicherheitsschlüssel|clave de acceso|llave de acceso|clé d.accès|chiave di accesso|chave de acesso|toegangssleutel|klucz dostępu|ключ доступа|パスキー|通行密钥|密钥登录|패스키`,
  /** A control that makes a new one rather than signing in with it. */
  create: String.raw`create|add|new|register|set.?up|enroll|erstellen|hinzufügen|crear|añadir|agregar|créer|ajouter|crea|aggiungi|criar|adicionar|toevoegen|dodaj|создать|добавить|作成|追加|登録|创建|添加|생성|추가|등록`,
  /** A control that removes or manages one: never clicked. */
  manage: String.raw`remove|delete|revoke|rename|manage|learn more|what is|entfernen|löschen|eliminar|supprimer|rimuovi|excluir|удалить|削除|删除|삭제`,
} as const;
