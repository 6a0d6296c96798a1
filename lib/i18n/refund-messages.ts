/**
 * Every string of the refund claim page (/refund/<id>) and the payment link page (/l/<slug>), per
 * language: the checkout's six. `{…}` marks a value put in by the page.
 */

import type { ClaimProblem } from "../refunds/claim-problems";
import type { Locale } from "./locale";

export interface PayerPageMessages {
  language: string;
  refundFrom: string;
  refund: string;
  order: string;
  addressLabel: string;
  addressHelp: string;
  senderHint: string;
  senderWarning: string;
  useSender: string;
  useWallet: string;
  invalidAddress: string;
  zeroAddress: string;
  serviceAddress: string;
  /** The merchant's side cannot send it now (its wallet, budget, the network): never the internals. */
  claimUnavailable: string;
  submit: string;
  submitting: string;
  claimBy: string;
  sendingTitle: string;
  sendingBody: string;
  /** Claimed, but the merchant's wallet cannot pay it yet: it goes out by itself (never the internals). */
  awaitingFundsTitle: string;
  awaitingFundsBody: string;
  completedTitle: string;
  completedBody: string;
  failedTitle: string;
  cancelledTitle: string;
  unavailableBody: string;
  viewTransaction: string;
  sentTo: string;
  linkPay: string;
  linkPaying: string;
  linkAmount: string;
  linkMinimum: string;
  linkInactiveTitle: string;
  linkInactiveBody: string;
  /** Pay answered 429: the link has its cap of open payments, or this client pressed Pay too often. */
  linkBusyTitle: string;
  linkBusyBody: string;
  paying: string;
}

const en: PayerPageMessages = {
  language: "Language",
  refundFrom: "Refund from {merchant}",
  refund: "Refund",
  order: "Order {order}",
  addressLabel: "Your BNB Smart Chain (BEP-20) address",
  addressHelp:
    "Use an address you control on BNB Smart Chain. Tokens sent to another network, or to an exchange address that does not accept this token, are lost.",
  senderHint: "The payment came from this address:",
  senderWarning: "If it is an exchange or a wallet you do not control, do not use it.",
  useSender: "Use this address",
  useWallet: "Use my wallet's address",
  invalidAddress: "Enter a BNB Smart Chain address: 0x followed by 40 characters.",
  zeroAddress: "This address cannot receive tokens: whatever is sent to it is burnt. Enter your own address.",
  serviceAddress: "This address belongs to the payment service, not to you. Enter the address of your own wallet.",
  claimUnavailable: "Your refund cannot be sent right now, and nothing was sent. Try again later, or contact the shop.",
  submit: "Send my refund",
  submitting: "Sending…",
  claimBy: "Give your address by {date}",
  sendingTitle: "Your refund is on its way",
  sendingBody: "It usually arrives within a minute. This page updates by itself.",
  awaitingFundsTitle: "Your refund is waiting to be sent",
  awaitingFundsBody:
    "The shop's wallet cannot send it yet. It goes out by itself as soon as it can: you do not need to do anything. This page updates by itself.",
  completedTitle: "Refund sent",
  completedBody: "The tokens are in your wallet.",
  failedTitle: "This refund could not be sent",
  cancelledTitle: "This refund is no longer available",
  unavailableBody: "Contact the shop for a new one.",
  viewTransaction: "View transaction",
  sentTo: "Sent to",
  linkPay: "Pay",
  linkPaying: "Opening the payment…",
  linkAmount: "Amount ({token})",
  linkMinimum: "At least {amount} {token}",
  linkInactiveTitle: "This payment link is no longer active",
  linkInactiveBody: "Ask the seller for a new link.",
  linkBusyTitle: "This payment link is busy",
  linkBusyBody: "Please try again in a minute.",
  paying: "Paying {merchant}",
};

const zh: PayerPageMessages = {
  language: "语言",
  refundFrom: "来自 {merchant} 的退款",
  refund: "退款",
  order: "订单 {order}",
  addressLabel: "您的 BNB 智能链 (BEP-20) 地址",
  addressHelp: "请使用您自己掌控的 BNB 智能链地址。发送到其他网络或不支持此代币的交易所地址的代币将会丢失。",
  senderHint: "这笔付款来自以下地址：",
  senderWarning: "如果这是交易所地址或不由您掌控的钱包，请不要使用。",
  useSender: "使用此地址",
  useWallet: "使用我钱包的地址",
  invalidAddress: "请输入 BNB 智能链地址：0x 后跟 40 个字符。",
  zeroAddress: "此地址无法接收代币：发送到此地址的代币将被销毁。请输入您自己的地址。",
  serviceAddress: "此地址属于支付服务，而不是您的地址。请输入您自己钱包的地址。",
  claimUnavailable: "您的退款暂时无法发送，尚未转出任何款项。请稍后重试，或联系商家。",
  submit: "发送我的退款",
  submitting: "正在发送…",
  claimBy: "请在 {date} 前提供您的地址",
  sendingTitle: "您的退款正在发送中",
  sendingBody: "通常在一分钟内到账。此页面会自动更新。",
  awaitingFundsTitle: "您的退款正在等待发送",
  awaitingFundsBody: "商家的钱包暂时无法发送。可以发送时，退款将自动发出，您无需再提交。此页面会自动更新。",
  completedTitle: "退款已发送",
  completedBody: "代币已到达您的钱包。",
  failedTitle: "此退款无法发送",
  cancelledTitle: "此退款已不可用",
  unavailableBody: "请联系商家重新发起退款。",
  viewTransaction: "查看交易",
  sentTo: "发送至",
  linkPay: "支付",
  linkPaying: "正在打开付款页面…",
  linkAmount: "金额 ({token})",
  linkMinimum: "至少 {amount} {token}",
  linkInactiveTitle: "此付款链接已停用",
  linkInactiveBody: "请向卖家索取新的链接。",
  linkBusyTitle: "此付款链接暂时无法使用",
  linkBusyBody: "请一分钟后再试。",
  paying: "付款给 {merchant}",
};

const vi: PayerPageMessages = {
  language: "Ngôn ngữ",
  refundFrom: "Hoàn tiền từ {merchant}",
  refund: "Hoàn tiền",
  order: "Đơn hàng {order}",
  addressLabel: "Địa chỉ BNB Smart Chain (BEP-20) của bạn",
  addressHelp:
    "Hãy dùng địa chỉ bạn kiểm soát trên BNB Smart Chain. Token gửi sang mạng khác, hoặc tới địa chỉ sàn không nhận token này, sẽ bị mất.",
  senderHint: "Khoản thanh toán đến từ địa chỉ này:",
  senderWarning: "Nếu đó là sàn giao dịch hoặc ví bạn không kiểm soát, đừng dùng địa chỉ này.",
  useSender: "Dùng địa chỉ này",
  useWallet: "Dùng địa chỉ ví của tôi",
  invalidAddress: "Nhập địa chỉ BNB Smart Chain: 0x và 40 ký tự.",
  zeroAddress: "Địa chỉ này không thể nhận token: mọi token gửi tới đều bị hủy. Hãy nhập địa chỉ của bạn.",
  serviceAddress: "Địa chỉ này thuộc về dịch vụ thanh toán, không phải của bạn. Hãy nhập địa chỉ ví của chính bạn.",
  claimUnavailable: "Hiện chưa thể gửi khoản hoàn tiền của bạn và chưa có gì được gửi. Hãy thử lại sau hoặc liên hệ cửa hàng.",
  submit: "Gửi tiền hoàn cho tôi",
  submitting: "Đang gửi…",
  claimBy: "Cung cấp địa chỉ trước {date}",
  sendingTitle: "Tiền hoàn đang được gửi",
  sendingBody: "Thường đến trong vòng một phút. Trang này tự cập nhật.",
  awaitingFundsTitle: "Khoản hoàn tiền của bạn đang chờ gửi",
  awaitingFundsBody:
    "Ví của cửa hàng chưa thể gửi ngay. Khoản tiền sẽ tự động được gửi ngay khi có thể, bạn không cần làm gì thêm. Trang này tự cập nhật.",
  completedTitle: "Đã gửi tiền hoàn",
  completedBody: "Token đã vào ví của bạn.",
  failedTitle: "Không thể gửi khoản hoàn tiền này",
  cancelledTitle: "Khoản hoàn tiền này không còn hiệu lực",
  unavailableBody: "Hãy liên hệ cửa hàng để được tạo khoản mới.",
  viewTransaction: "Xem giao dịch",
  sentTo: "Gửi tới",
  linkPay: "Thanh toán",
  linkPaying: "Đang mở trang thanh toán…",
  linkAmount: "Số tiền ({token})",
  linkMinimum: "Tối thiểu {amount} {token}",
  linkInactiveTitle: "Liên kết thanh toán này không còn hoạt động",
  linkInactiveBody: "Hãy xin người bán một liên kết mới.",
  linkBusyTitle: "Liên kết thanh toán này đang bận",
  linkBusyBody: "Vui lòng thử lại sau một phút.",
  paying: "Thanh toán cho {merchant}",
};

const ru: PayerPageMessages = {
  language: "Язык",
  refundFrom: "Возврат от {merchant}",
  refund: "Возврат",
  order: "Заказ {order}",
  addressLabel: "Ваш адрес в BNB Smart Chain (BEP-20)",
  addressHelp:
    "Укажите адрес в BNB Smart Chain, которым вы управляете. Токены, отправленные в другую сеть или на адрес биржи, не принимающей этот токен, будут потеряны.",
  senderHint: "Платёж пришёл с этого адреса:",
  senderWarning: "Если это биржа или кошелёк, которым вы не управляете, не используйте его.",
  useSender: "Использовать этот адрес",
  useWallet: "Взять адрес из моего кошелька",
  invalidAddress: "Введите адрес BNB Smart Chain: 0x и ещё 40 символов.",
  zeroAddress: "Этот адрес не может получать токены: всё, что на него отправлено, сгорает. Введите свой адрес.",
  serviceAddress: "Этот адрес принадлежит платёжному сервису, а не вам. Введите адрес своего кошелька.",
  claimUnavailable: "Сейчас отправить возврат не получается, ничего не отправлено. Попробуйте позже или свяжитесь с магазином.",
  submit: "Отправить мне возврат",
  submitting: "Отправляем…",
  claimBy: "Укажите адрес до {date}",
  sendingTitle: "Возврат уже в пути",
  sendingBody: "Обычно он приходит в течение минуты. Страница обновится сама.",
  awaitingFundsTitle: "Ваш возврат ожидает отправки",
  awaitingFundsBody:
    "Кошелёк магазина пока не может его отправить. Возврат уйдёт автоматически, как только это станет возможно, — ничего делать не нужно. Страница обновится сама.",
  completedTitle: "Возврат отправлен",
  completedBody: "Токены поступили на ваш кошелёк.",
  failedTitle: "Не удалось отправить этот возврат",
  cancelledTitle: "Этот возврат больше недоступен",
  unavailableBody: "Свяжитесь с магазином, чтобы получить новый.",
  viewTransaction: "Посмотреть транзакцию",
  sentTo: "Отправлено на",
  linkPay: "Оплатить",
  linkPaying: "Открываем оплату…",
  linkAmount: "Сумма ({token})",
  linkMinimum: "Не меньше {amount} {token}",
  linkInactiveTitle: "Эта платёжная ссылка больше не действует",
  linkInactiveBody: "Попросите у продавца новую ссылку.",
  linkBusyTitle: "Эта платёжная ссылка сейчас занята",
  linkBusyBody: "Попробуйте ещё раз через минуту.",
  paying: "Оплата для {merchant}",
};

const tr: PayerPageMessages = {
  language: "Dil",
  refundFrom: "{merchant} iadesi",
  refund: "İade",
  order: "Sipariş {order}",
  addressLabel: "BNB Smart Chain (BEP-20) adresiniz",
  addressHelp:
    "BNB Smart Chain üzerinde kontrol ettiğiniz bir adres kullanın. Başka bir ağa veya bu tokeni kabul etmeyen bir borsa adresine gönderilen tokenler kaybolur.",
  senderHint: "Ödeme bu adresten geldi:",
  senderWarning: "Bu bir borsa ya da kontrol etmediğiniz bir cüzdansa kullanmayın.",
  useSender: "Bu adresi kullan",
  useWallet: "Cüzdanımın adresini kullan",
  invalidAddress: "Bir BNB Smart Chain adresi girin: 0x ve ardından 40 karakter.",
  zeroAddress: "Bu adres token alamaz: gönderilen her şey yakılır. Kendi adresinizi girin.",
  serviceAddress: "Bu adres size değil, ödeme hizmetine ait. Kendi cüzdanınızın adresini girin.",
  claimUnavailable: "İadeniz şu anda gönderilemiyor ve hiçbir şey gönderilmedi. Daha sonra tekrar deneyin veya mağazayla iletişime geçin.",
  submit: "İademi gönder",
  submitting: "Gönderiliyor…",
  claimBy: "Adresinizi {date} tarihine kadar verin",
  sendingTitle: "İadeniz yolda",
  sendingBody: "Genellikle bir dakika içinde ulaşır. Bu sayfa kendiliğinden güncellenir.",
  awaitingFundsTitle: "İadeniz gönderilmeyi bekliyor",
  awaitingFundsBody:
    "Mağazanın cüzdanı henüz gönderemiyor. Mümkün olur olmaz kendiliğinden gönderilir; sizin bir şey yapmanız gerekmez. Bu sayfa kendiliğinden güncellenir.",
  completedTitle: "İade gönderildi",
  completedBody: "Tokenler cüzdanınızda.",
  failedTitle: "Bu iade gönderilemedi",
  cancelledTitle: "Bu iade artık geçerli değil",
  unavailableBody: "Yeni bir iade için mağazayla iletişime geçin.",
  viewTransaction: "İşlemi görüntüle",
  sentTo: "Gönderildiği adres",
  linkPay: "Öde",
  linkPaying: "Ödeme açılıyor…",
  linkAmount: "Tutar ({token})",
  linkMinimum: "En az {amount} {token}",
  linkInactiveTitle: "Bu ödeme bağlantısı artık etkin değil",
  linkInactiveBody: "Satıcıdan yeni bir bağlantı isteyin.",
  linkBusyTitle: "Bu ödeme bağlantısı şu anda meşgul",
  linkBusyBody: "Lütfen bir dakika sonra tekrar deneyin.",
  paying: "{merchant} ödemesi",
};

const es: PayerPageMessages = {
  language: "Idioma",
  refundFrom: "Reembolso de {merchant}",
  refund: "Reembolso",
  order: "Pedido {order}",
  addressLabel: "Tu dirección de BNB Smart Chain (BEP-20)",
  addressHelp:
    "Usa una dirección que controles en BNB Smart Chain. Los tokens enviados a otra red, o a una dirección de un exchange que no acepte este token, se pierden.",
  senderHint: "El pago llegó desde esta dirección:",
  senderWarning: "Si es un exchange o una billetera que no controlas, no la uses.",
  useSender: "Usar esta dirección",
  useWallet: "Usar la dirección de mi billetera",
  invalidAddress: "Introduce una dirección de BNB Smart Chain: 0x seguido de 40 caracteres.",
  zeroAddress: "Esta dirección no puede recibir tokens: todo lo que se le envía se destruye. Introduce tu propia dirección.",
  serviceAddress: "Esta dirección pertenece al servicio de pagos, no a ti. Introduce la dirección de tu propia billetera.",
  claimUnavailable: "Ahora mismo no se puede enviar tu reembolso y no se ha enviado nada. Inténtalo más tarde o contacta con la tienda.",
  submit: "Enviar mi reembolso",
  submitting: "Enviando…",
  claimBy: "Indica tu dirección antes del {date}",
  sendingTitle: "Tu reembolso está en camino",
  sendingBody: "Suele llegar en menos de un minuto. Esta página se actualiza sola.",
  awaitingFundsTitle: "Tu reembolso está pendiente de envío",
  awaitingFundsBody:
    "La billetera de la tienda aún no puede enviarlo. Saldrá automáticamente en cuanto sea posible; no tienes que hacer nada. Esta página se actualiza sola.",
  completedTitle: "Reembolso enviado",
  completedBody: "Los tokens están en tu billetera.",
  failedTitle: "No se pudo enviar este reembolso",
  cancelledTitle: "Este reembolso ya no está disponible",
  unavailableBody: "Contacta con la tienda para obtener uno nuevo.",
  viewTransaction: "Ver transacción",
  sentTo: "Enviado a",
  linkPay: "Pagar",
  linkPaying: "Abriendo el pago…",
  linkAmount: "Importe ({token})",
  linkMinimum: "Al menos {amount} {token}",
  linkInactiveTitle: "Este enlace de pago ya no está activo",
  linkInactiveBody: "Pide al vendedor un enlace nuevo.",
  linkBusyTitle: "Este enlace de pago está ocupado",
  linkBusyBody: "Vuelve a intentarlo en un minuto.",
  paying: "Pago a {merchant}",
};

export const PAYER_PAGE_MESSAGES: Record<Locale, PayerPageMessages> = { en, zh, vi, ru, tr, es };

/** The sentence the claim page shows for a refused claim (lib/refunds/claim-problems.ts). */
export function claimProblemMessage(problem: ClaimProblem, t: PayerPageMessages): string {
  const sentences: Record<ClaimProblem, string> = {
    "invalid-address": t.invalidAddress,
    "zero-address": t.zeroAddress,
    "service-address": t.serviceAddress,
    "not-claimable": t.unavailableBody,
    unavailable: t.claimUnavailable,
  };
  return sentences[problem];
}
