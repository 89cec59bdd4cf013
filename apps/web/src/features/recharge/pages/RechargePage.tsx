import {
  CheckCircleFilled,
  CloseCircleFilled,
  ExclamationCircleFilled,
  RightOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { PAYMENT_COUNTDOWN_S, RECHARGE_MAX, RECHARGE_MIN } from '@gpu/shared/constants';
import { formatMoney } from '@gpu/shared/money';
import { DEFAULT_RECHARGE_BODY, DEFAULT_RECHARGE_SUBJECT } from '@gpu/shared/payments';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Spin } from 'antd';
import { useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { MoneyFigure } from '../../../components/Price';
import { APP_EVENTS, emitAppEvent } from '../../../lib/app-events';
import { confirmDialog, notify } from '../../../lib/feedback';
import { PATHS } from '../../../lib/routing/paths';
import { t } from '../../../locales/zh-CN';
import { refreshMoneyNow, useBalance } from '../../billing';
import { createQrCodeAction } from '../api/create-qr-code';
import { rechargeOrderKeys } from '../api/keys';
import { AmountPicker } from '../components/AmountPicker';
import { PaymentMethodPicker } from '../components/PaymentMethodPicker';
import { QrPaymentView } from '../components/QrPaymentView';
import type { PaymentOutcome } from '../payment-session';
import { canSubmit, customAmountError, formAmount, INITIAL_FORM, isComplete } from '../recharge-form';
import { usePaymentSession } from '../use-payment-session';
import styles from './RechargePage.module.css';

const r = t.recharge;
const m = r.messages;

interface PendingOrder {
  qrCode: string;
  orderNo: string;
  amount: number;
}

/**
 * /recharge (SPEC.md §2, §4): the balance, the amount form, then the QR payment view with its
 * countdown and status polling. Leaving the view or the page stops the session.
 */
export default function RechargePage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const balance = useBalance();
  const [form, setForm] = useState(INITIAL_FORM);
  const [touched, setTouched] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [order, setOrder] = useState<PendingOrder | null>(null);

  const cardRef = useRef<HTMLDivElement>(null);
  // One action holder per page: a click after an unanswered one reuses its idempotency key.
  const [createQrCode] = useState(() => createQrCodeAction());

  /** Switching views on a phone (the button sits low): bring the card's top into view. */
  const revealCard = () => {
    const top = cardRef.current?.getBoundingClientRect().top;
    if (top !== undefined && top < 72)
      window.scrollTo({ top: window.scrollY + top - 88, behavior: 'smooth' });
  };

  const backToForm = () => {
    setOrder(null);
    revealCard();
  };

  const onOutcome = async (outcome: PaymentOutcome) => {
    switch (outcome) {
      case 'success': {
        // Every view of the balance (this page, the top bar, the account drawer) shows the new
        // figure before the dialog opens over it; then tell the rest of the app.
        await refreshMoneyNow(queryClient);
        void queryClient.invalidateQueries({ queryKey: rechargeOrderKeys.all });
        emitAppEvent(APP_EVENTS.balance, { orderNo: order?.orderNo, amount: order?.amount });
        setForm(INITIAL_FORM);
        setTouched(false);
        await confirmDialog({
          title: m.successTitle,
          content: order ? m.successText(formatMoney(order.amount)) : undefined,
          icon: <CheckCircleFilled style={{ color: '#52c41a' }} />,
          okText: r.continue,
          cancelText: r.stay,
          onOk: () => navigate(PATHS.console.root),
          onCancel: backToForm,
        });
        return;
      }
      case 'fail':
        void queryClient.invalidateQueries({ queryKey: rechargeOrderKeys.all });
        await confirmDialog({
          title: m.failTitle,
          content: m.failText,
          icon: <CloseCircleFilled style={{ color: '#ff4d4f' }} />,
          okText: r.continue,
          okCancel: false,
          onOk: backToForm,
          onCancel: backToForm,
        });
        return;
      case 'timeout':
        backToForm();
        await confirmDialog({
          title: m.timeoutTitle,
          content: m.timeout,
          icon: <ExclamationCircleFilled style={{ color: '#faad14' }} />,
          okText: t.common.confirm,
          okCancel: false,
        });
        return;
      case 'error':
        await notify('error', m.pollFailed);
        return;
      case 'networkError':
        await notify('error', m.network);
        return;
    }
  };

  const onCountdownEnd = () =>
    confirmDialog({
      title: m.countdownEnded,
      icon: <ExclamationCircleFilled style={{ color: '#faad14' }} />,
      okText: t.common.confirm,
      okCancel: false,
    });

  const { secondsLeft, checkNow } = usePaymentSession(order?.orderNo ?? null, {
    onOutcome: (outcome) => void onOutcome(outcome),
    onCountdownEnd: () => void onCountdownEnd(),
  });

  const amount = formAmount(form);
  const error = touched ? customAmountError(form) : null;

  const submit = async () => {
    setTouched(true);
    if (!isComplete(form) || !form.method) {
      void notify('warning', r.incomplete);
      return;
    }
    setSubmitting(true);
    const result = await createQrCode({
      amount,
      subject: DEFAULT_RECHARGE_SUBJECT,
      body: DEFAULT_RECHARGE_BODY,
      type: form.method,
    });
    setSubmitting(false);
    if (!result.ok) {
      void notify('error', result.message);
      return;
    }
    void queryClient.invalidateQueries({ queryKey: rechargeOrderKeys.all });
    setOrder({ ...result.qr, amount });
    revealCard();
  };

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>{r.title}</h1>
        <p className={styles.subtitle}>{r.subtitle}</p>
      </header>

      <div className={styles.grid}>
        <div className={styles.main}>
          <div className={styles.balance}>
            <span className={styles.balanceIcon}>
              <WalletOutlined />
            </span>
            <div className={styles.balanceText}>
              <span className={styles.balanceLabel}>{r.balance}</span>
              <span className={styles.balanceValue} data-testid="recharge-balance">
                {balance.isPending ? (
                  <Spin size="small" />
                ) : (
                  <MoneyFigure value={balance.data?.available ?? 0} />
                )}
              </span>
            </div>
            <Link to={PATHS.console.rechargeOrders} className={styles.ordersLink}>
              {r.orders} <RightOutlined />
            </Link>
          </div>

          <Card className={styles.card} ref={cardRef}>
            {order ? (
              <QrPaymentView
                qrCode={order.qrCode}
                orderNo={order.orderNo}
                amount={order.amount}
                secondsLeft={secondsLeft}
                onBack={backToForm}
                onPaid={checkNow}
              />
            ) : (
              <form
                className={styles.form}
                noValidate
                onSubmit={(event) => {
                  event.preventDefault();
                  void submit();
                }}
              >
                <section className={styles.section}>
                  <h2 className={styles.sectionTitle}>{r.amountLabel}</h2>
                  <AmountPicker
                    preset={form.preset}
                    custom={form.custom}
                    error={error}
                    onPreset={(preset) => {
                      setForm((f) => ({ ...f, preset, custom: '' }));
                      setTouched(false);
                    }}
                    onCustom={(custom) => {
                      setForm((f) => ({ ...f, preset: null, custom }));
                      setTouched(true);
                    }}
                    onCustomBlur={() => {
                      if (form.preset === null && form.custom !== '') setTouched(true);
                    }}
                  />
                </section>

                <section className={styles.section}>
                  <h2 className={styles.sectionTitle}>{r.methodLabel}</h2>
                  <PaymentMethodPicker
                    value={form.method}
                    onChange={(method) => setForm((f) => ({ ...f, method }))}
                  />
                </section>

                <div className={styles.footer}>
                  <div className={styles.payable}>
                    <span>{r.payable}</span>
                    <strong data-testid="recharge-payable">
                      <MoneyFigure value={Number.isFinite(amount) ? amount : 0} />
                    </strong>
                  </div>
                  <Button
                    type="primary"
                    size="large"
                    htmlType="submit"
                    loading={submitting}
                    disabled={!canSubmit(form)}
                    className={styles.submit}
                    data-testid="recharge-submit"
                  >
                    {r.submit}
                  </Button>
                </div>
              </form>
            )}
          </Card>
        </div>

        <aside className={styles.aside}>
          <Card title={r.tipsTitle} size="small" className={styles.tips}>
            <ul>
              {r.tips(RECHARGE_MIN, RECHARGE_MAX, PAYMENT_COUNTDOWN_S / 60).map((tip) => (
                <li key={tip}>{tip}</li>
              ))}
            </ul>
          </Card>
        </aside>
      </div>
    </div>
  );
}
