import type { BillingType } from '@gpu/shared/constants';
import { defaultInstanceName, instanceMessages, instanceNameSchema } from '@gpu/shared/instances';
import type { MarketItem } from '@gpu/shared/market';
import { isOverseasSku } from '@gpu/shared/market';
import { unitsToYuan } from '@gpu/shared/money';
import { displayPrices } from '@gpu/shared/price-display';
import type { UserImage } from '@gpu/shared/user-images';
import { OVERSEAS_DISK_GB } from '@gpu/shared/vastai';
import { Alert } from 'antd';
import { useMemo, useReducer, useState } from 'react';
import { ExtraPortsField, parseExtraPorts } from '../../../components/ExtraPortsField';
import { confirmDialog, notify } from '../../../lib/feedback';
import { isLoggedIn } from '../../../lib/session';
import { useSession } from '../../../lib/use-session';
import { t } from '../../../locales/zh-CN';
import { useBalance } from '../../billing';
import { useImages } from '../api/get-images';
import { usePackagePricing } from '../api/get-package-pricing';
import { useAvailableVouchers } from '../api/get-vouchers';
import { clampGpuCount, gpuCountBounds } from '../gpu-count';
import { cascaderReducer, INITIAL_CASCADER } from '../image-cascader';
import { orderFigures, orderUnits, packagePricesFor } from '../order-figures';
import { imagesForOffer } from '../overseas-images';
import { clampDuration } from '../subscribe-params';
import { useOrderQuote } from '../use-order-quote';
import { useSubmitOrder } from '../use-submit-order';
import { isApplicable, type Voucher } from '../vouchers';
import { BillingChoice } from './BillingChoice';
import { DurationChoice } from './DurationChoice';
import { FormSection } from './FormSection';
import { GpuCountChoice } from './GpuCountChoice';
import { HostCard } from './HostCard';
import { ImageCascader } from './ImageCascader';
import { ImageSource, type ImageTab } from './ImageSource';
import { InstanceNameField } from './InstanceNameField';
import { OrderBar } from './OrderBar';
import { PackageConfirm } from './PackageConfirm';
import styles from './SubscribeForm.module.css';
import { VoucherSelector } from './VoucherSelector';

const s = t.subscribe;

export interface SubscribeFormProps {
  item: MarketItem;
  billingType: BillingType;
  onBillingChange: (billingType: BillingType) => void;
}

/** The create-instance form of SPEC.md §2 for one machine, with the sticky bottom bar. */
export function SubscribeForm({ item, billingType: chosenBilling, onBillingChange }: SubscribeFormProps) {
  const session = useSession();
  const overseas = isOverseasSku(item.skuGpuId);
  // Overseas offers are pay-as-you-go only (SPEC.md §9: duration 1).
  const billingType: BillingType = overseas ? 'hourly' : chosenBilling;

  // Discount: live until its end passes on this screen (SPEC.md §4).
  const [discountEnded, setDiscountEnded] = useState(false);
  const discountLive = item.hasDiscount && !discountEnded;
  const endDiscount = () => {
    if (discountEnded) return;
    setDiscountEnded(true);
    void notify('warning', s.discountEnded);
  };

  const bounds = gpuCountBounds(item);
  const [gpuWanted, setGpuWanted] = useState(1);
  const gpuAmount = clampGpuCount(gpuWanted, bounds);

  const [durationWanted, setDurationWanted] = useState(1);
  const duration = clampDuration(durationWanted, billingType);

  const [cascader, dispatchCascader] = useReducer(cascaderReducer, INITIAL_CASCADER);
  // 我的镜像 (saved images) for local machines; overseas offers take catalogue images only.
  const [imageTab, setImageTab] = useState<ImageTab>('public');
  const [mine, setMine] = useState<UserImage | null>(null);
  const chosenImage =
    !overseas && imageTab === 'mine' ? (mine?.image ?? null) : (cascader.selected?.imageUrl ?? null);
  const images = useImages(item.gpuBrand, overseas ? 'vast.ai' : 'local');
  // An overseas offer shows only the images its CUDA runs.
  const imageMap = overseas ? imagesForOffer(images.data?.imageMap, item.cudaVersion) : images.data?.imageMap;

  const order = useMemo(() => ({ gpuType: item.gpuName, regionId: item.regionId }), [item]);
  const vouchers = useAvailableVouchers(order);
  const [voucherChosen, setVoucher] = useState<Voucher | null>(null);

  const [name, setName] = useState(() => defaultInstanceName(item.gpuName, new Date()));
  const [nameTouched, setNameTouched] = useState(false);
  const nameCheck = instanceNameSchema.safeParse(name);
  const nameError = nameCheck.success
    ? null
    : (nameCheck.error.issues[0]?.message ?? instanceMessages.nameInvalid);

  // Extra service ports: local hosts only (a provider's machine maps its own ports).
  const [portsTyped, setPortsTyped] = useState<string[]>([]);
  const extra = parseExtraPorts(portsTyped);

  const pricing = usePackagePricing(item.gpuName, true);
  const packagePrices = packagePricesFor(pricing.data, item.regionId);
  const pricingReady = billingType === 'hourly' || !pricing.isPending;

  const orderInput = { item, billingType, duration, gpuAmount, packagePrices, discountLive };
  // What a voucher pays for: the order after discount, before any voucher (its minimum applies to it).
  const beforeVoucher = orderUnits({ ...orderInput, voucherRemaining: null });
  const voucherOrder = {
    ...order,
    amount: unitsToYuan(beforeVoucher.originalAmount - beforeVoucher.discountAmount),
  };
  // A chosen voucher that no longer applies (expired while here, order below its minimum) is dropped.
  const voucher =
    voucherChosen && isApplicable(voucherChosen, Date.now(), voucherOrder) ? voucherChosen : null;
  const local = orderFigures({ ...orderInput, voucherRemaining: voucher?.remainingAmount ?? null });

  const quote = useOrderQuote({
    machineId: item.id,
    billingType,
    duration,
    gpuAmount,
    voucherId: voucher?.id ?? null,
    // The quote endpoint prices SKUs; an overseas offer is priced from the market item.
    orderable: bounds.max > 0 && !overseas,
    discountLive,
    local,
  });
  const figures = quote.figures;

  const balance = useBalance(isLoggedIn(session));
  const { submit: create, submitOverseas, creating } = useSubmitOrder(item.skuGpuId, quote.refetch);

  let blockedReason: string | null = null;
  if (bounds.max < 1) blockedReason = s.noIdle;
  else if (!chosenImage) blockedReason = s.bar.needImage;
  else if (nameError) blockedReason = s.bar.needName;
  else if (extra.error && !overseas) blockedReason = extra.error;
  else if (!pricingReady) blockedReason = t.common.loading;

  const submit = () => {
    if (creating || blockedReason || !chosenImage) return;
    if (overseas) {
      submitOverseas({
        offerId: item.id,
        label: name,
        diskSpace: OVERSEAS_DISK_GB,
        image: chosenImage,
      });
      return;
    }
    const payload = {
      machineId: item.id,
      instanceName: name,
      image: chosenImage,
      gpuAmount,
      duration: billingType === 'hourly' ? 1 : duration,
      billingType,
      // Only a chosen voucher is sent: the server refuses one it cannot apply.
      ...(voucher ? { voucherId: voucher.id } : {}),
      ...(extra.ports.length > 0 ? { extraPorts: extra.ports } : {}),
    };
    if (billingType === 'hourly') {
      create(payload);
      return;
    }
    // A package takes its whole price at once: confirm amount, duration, expiry and the rule first.
    void confirmDialog({
      title: s.confirm.title(s.billing[billingType]),
      content: (
        <PackageConfirm
          billingType={billingType}
          duration={duration}
          gpuName={item.gpuName}
          gpuAmount={gpuAmount}
          amount={figures.payableAmount}
          from={new Date()}
        />
      ),
      okText: s.confirm.ok,
      cancelText: s.confirm.cancel,
      width: 460,
      onOk: () => create(payload),
    });
  };

  const cascaderEl = (
    <ImageCascader
      imageMap={imageMap}
      loading={images.isPending}
      failed={images.isError}
      onRetry={() => void images.refetch()}
      state={cascader}
      dispatch={dispatchCascader}
    />
  );

  const paid = displayPrices(discountLive ? item.discountPrice : item.originalPrice);

  return (
    <div className={styles.form}>
      {discountEnded ? (
        <Alert
          type="warning"
          showIcon
          message={s.discountEnded}
          className={styles.alert}
          data-testid="discount-ended"
        />
      ) : null}

      <div className={styles.card}>
        {overseas ? (
          <Alert type="info" showIcon message={t.overseas.billingNote} data-testid="overseas-note" />
        ) : (
          <BillingChoice
            item={item}
            packagePrices={packagePrices}
            discountLive={discountLive}
            pricingPending={pricing.isPending}
            value={billingType}
            onChange={onBillingChange}
          />
        )}

        <FormSection title={s.sections.host} testId="section-host">
          <HostCard item={item} discountLive={discountLive} onDiscountEnd={endDiscount} />
        </FormSection>

        <GpuCountChoice
          bounds={bounds}
          value={gpuAmount}
          onChange={setGpuWanted}
          perGpuHourly={paid.perHour}
        />

        {billingType !== 'hourly' ? (
          <DurationChoice billingType={billingType} value={duration} onChange={setDurationWanted} />
        ) : null}
      </div>

      <div className={styles.card}>
        <FormSection title={s.sections.image} testId="section-image">
          {overseas ? (
            cascaderEl
          ) : (
            <ImageSource
              tab={imageTab}
              onTab={setImageTab}
              hostName={item.hostName}
              mine={mine}
              onMine={setMine}
            >
              {cascaderEl}
            </ImageSource>
          )}
        </FormSection>

        {overseas ? null : (
          <FormSection title={s.sections.voucher} testId="section-voucher">
            <VoucherSelector
              vouchers={vouchers.data ?? []}
              loading={vouchers.isPending}
              failed={vouchers.isError}
              onRetry={() => void vouchers.refetch()}
              order={voucherOrder}
              selected={voucher}
              onSelect={setVoucher}
              deduction={figures.voucherDeduction}
            />
          </FormSection>
        )}

        <FormSection title={s.sections.name} testId="section-name">
          <InstanceNameField
            value={name}
            onChange={(value) => {
              setName(value);
              setNameTouched(true);
            }}
            error={nameError}
            touched={nameTouched}
            onBlur={() => setNameTouched(true)}
            onRegenerate={() => setName(defaultInstanceName(item.gpuName, new Date()))}
          />
        </FormSection>

        {overseas ? null : (
          <FormSection title={s.sections.extraPorts} testId="section-extra-ports">
            <ExtraPortsField
              value={portsTyped}
              onChange={setPortsTyped}
              error={extra.error}
              testId="extra-ports"
            />
            <p
              className={extra.error ? styles.portsError : styles.portsHint}
              role={extra.error ? 'alert' : undefined}
              data-testid="extra-ports-message"
            >
              {extra.error ?? t.extraPorts.createHint}
            </p>
          </FormSection>
        )}
      </div>

      <OrderBar
        figures={figures}
        billingType={billingType}
        duration={duration}
        quote={quote.state}
        balance={balance.data?.available ?? null}
        blockedReason={blockedReason}
        creating={creating}
        onCreate={submit}
      />
    </div>
  );
}
