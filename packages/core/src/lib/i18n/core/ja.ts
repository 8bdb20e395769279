/** Japanese texts of the core's pages and e-mail. */
import type { Translation } from "../messages.js";
import type { CoreMessages } from "./en.js";

export const ja: Translation<CoreMessages> = {
  "signIn.title": "ログイン",
  "signIn.continueTo": "{host} に進むにはログインしてください",
  "signIn.withProvider": "{provider} でログイン",
  "signIn.email": "メールアドレス",
  "signIn.emailForLink": "ログインリンクを受け取るメールアドレス",
  "signIn.emailForPasskey": "パスキーのメールアドレス",
  "signIn.passkey.signIn": "パスキーでログイン",
  "signIn.passkey.create": "パスキーを作成",
  "signIn.passkey.needsScript": "パスキーを使うには JavaScript を有効にしてください。",
  "signIn.passkey.error.closed":
    "パスキーの確認画面が閉じられたか、タイムアウトしました。もう一度お試しください。",
  "signIn.passkey.error.exists": "この端末には、このアカウントのパスキーがすでにあります。",
  "signIn.passkey.error.refused":
    "このアドレスではパスキーを作成できません。すでにアカウントをお持ちの場合は、先にログインしてください。",
  "signIn.passkey.error.createFailed": "パスキーを作成できませんでした。もう一度お試しください。",
  "signIn.passkey.error.signInFailed":
    "パスキーでログインできませんでした。もう一度お試しください。",
  "signIn.passkey.error.unsupported": "このブラウザはパスキーに対応していません。",
  "signIn.group.email": "ログインリンクをメールで受け取る",
  "signIn.group.password": "パスワード",
  "signIn.group.passkey": "パスキー",
  "signIn.group.oauth": "お持ちのアカウントを使う",
  "signIn.signedInAs": "{user} としてログイン中です。下から別の方法を連携するか、{signOut}。",
  "signIn.signedInAs.signOut": "ログアウトしてください",
  "signIn.or": "または",
  "signIn.noMethods": "ログイン方法が設定されていません。",

  "signIn.error.Signin":
    "ログインできませんでした。もう一度試すか、別の方法でログインしてください。",
  "signIn.error.OAuthSignin":
    "このプロバイダーでのログインを開始できませんでした。もう一度お試しください。",
  "signIn.error.OAuthCallbackError":
    "このプロバイダーでのログインが完了しませんでした。もう一度お試しください。",
  "signIn.error.CreateAccount":
    "アカウントを作成できませんでした。もう一度試すか、別の方法でログインしてください。",
  "signIn.error.Callback": "ログイン中に問題が発生しました。もう一度お試しください。",
  "signIn.error.AccountNotLinked":
    "本人確認のため、最初に登録したときと同じ方法でログインしてください。",
  "signIn.error.EmailSignin":
    "ログイン用のメールを送信できませんでした。アドレスを確認して、もう一度お試しください。",
  "signIn.error.CredentialsSignin":
    "ログインできませんでした。入力内容が正しいか確認してください。",
  "signIn.error.SessionRequired": "このページを見るにはログインしてください。",
  "signIn.error.MissingCSRF": "ログインフォームの有効期限が切れました。もう一度お試しください。",
  "signIn.error.Verification":
    "このログインリンクは無効になっています。すでに使用されたか、有効期限が切れた可能性があります。",
  "signIn.error.WebAuthnVerificationError":
    "パスキーを確認できませんでした。もう一度お試しください。",
  "signIn.error.RateLimited":
    "ログインの試行回数が多すぎます。1 分ほど待ってから、もう一度お試しください。",
  "signIn.error.default": "ログインできません。もう一度お試しください。",
  "signIn.error.addressRefused":
    "このメールアドレスは受け付けられませんでした。{reason}修正して、もう一度お試しください。",

  "address.address-required": "メールアドレスを入力してください。",
  "address.address-too-long": "メールアドレスが長すぎます。",
  "address.address-at-lookalike": "メールアドレスに @ に似た別の文字が含まれています。",
  "address.address-quoted": "引用符を含むメールアドレスは使用できません。",
  "address.address-one-at": "メールアドレスには @ がちょうど 1 つ必要です。",
  "address.address-local-part": "@ の前の部分に、アドレスに使えない文字が含まれています。",
  "address.address-domain": "@ の後の部分がドメイン名（example.com など）になっていません。",

  "signOut.title": "ログアウト",
  "signOut.question": "ログアウトしてもよろしいですか？",
  "signOut.submit": "ログアウト",
  "signOut.cancel": "キャンセル",

  "error.Configuration.title": "サーバーエラー",
  "error.Configuration.message":
    "サーバーの設定に問題があります。詳しくはサーバーのログを確認してください。",
  "error.AccessDenied.title": "アクセスが拒否されました",
  "error.AccessDenied.message": "ログインする権限がありません。",
  "error.Verification.title": "ログインできません",
  "error.Verification.message":
    "ログインリンクは無効になっています。すでに使用されたか、有効期限が切れた可能性があります。",
  "error.UserBanned.title": "アカウントが停止されています",
  "error.UserBanned.message":
    "このアカウントは停止されているため、ログインできません。誤りだと思われる場合は、サイトのサポートに連絡してください。",
  "error.SignOutError.title": "ログアウトが完了していません",
  "error.SignOutError.message":
    "この端末ではログアウトしましたが、現在すべての場所でセッションを終了できませんでした。別の端末にあるセッションのコピーは、まだログインしたままの可能性があります。管理できなくなった端末でログインしていた場合は、サイトのサポートに連絡してください。",
  "error.default.title": "問題が発生しました",
  "error.default.message": "予期しないエラーが発生しました。もう一度お試しください。",
  "error.homePage": "ホームページへ",
  "error.backToSignIn": "ログインに戻る",
  "error.details": "詳細（デバッグモード）",

  "page.goTo": "{host} へ移動",

  "verifyRequest.title": "メールを確認してください",
  "verifyRequest.sent": "ログインリンクを送信しました。",
  "verifyRequest.openLink":
    "メール内のリンクを開いてログインを完了してください。このタブは閉じてもかまいません。",
  "verifyRequest.noEmail": "メールが届きませんか？迷惑メールフォルダを確認するか、{tryAgain}。",
  "verifyRequest.tryAgain": "もう一度お試しください",
  "verifyRequest.code.label": "またはメールに記載された6桁のコードを入力してください",
  "verifyRequest.code.submit": "ログイン",
  "verifyRequest.code.CodeInvalid":
    "コードが正しくありません。メールを確認して、もう一度お試しください。",
  "verifyRequest.code.CodeExpired":
    "このコードは使用できません。有効期限が切れたか、すでに使用されたか、試行回数が多すぎます。新しいメールをリクエストしてください。",
  "verifyRequest.code.RateLimited": "試行回数が多すぎます。1分待ってから、もう一度お試しください。",

  "email.subject": "{host} へのログイン",
  "email.preview": "{host} のログインリンクです。有効期限は {lifetime} です。",
  "email.pressButton": "下のボタンを押してログインしてください。",
  "email.thisLinkExpires": "このリンクの有効期限は {lifetime} で、1 回だけ使用できます。",
  "email.theLinkExpires": "リンクの有効期限は {lifetime} で、1 回だけ使用できます。",
  "email.button": "ログイン",
  "email.orCode": "または、次のコードを入力してください：",
  "email.copyLink": "ボタンが機能しない場合は、このリンクをブラウザにコピーしてください：",
  "email.openLink": "次のリンクを開いてログインしてください：",
  "email.ignore": "ログインを依頼していない場合は、このメールを無視してかまいません。",
  "email.neverForward":
    "このメールは絶対に転送しないでください。リンクを知っている人は誰でもあなたとしてログインできます。",
};
