/** @jsxImportSource react */
// Where the next message is written: text (Enter sends, Shift+Enter adds a line), pictures
// attached by the button, by pasting or by dropping (sent as data: URLs in image_url parts, for
// vision models; large ones are scaled down first), and Send, which becomes Stop while an
// answer streams.
import { useRef, useState } from "react";
import type { IslandTranslate } from "../island-i18n.ts";
import { ActionIcon } from "./icons.tsx";
import { pictureDataUrl } from "./picture-data-url.ts";

export const maxPictures = 4;

type Props = {
  t: IslandTranslate;
  busy: boolean;
  text: string;
  images: string[];
  onText: (text: string) => void;
  onImages: (images: string[]) => void;
  onSend: () => void;
  onStop: () => void;
  onError: (message: string) => void;
};

export function Composer(props: Props) {
  const { t, busy } = props;
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  async function attach(files: Iterable<File>) {
    const pictures = [...files].filter((file) => file.type.startsWith("image/"));
    const added: string[] = [];
    for (const file of pictures) {
      if (props.images.length + added.length >= maxPictures) {
        props.onError(t("最多附加 {{count}} 张图片", { count: maxPictures }));
        break;
      }
      try {
        added.push(await pictureDataUrl(file));
      } catch {
        props.onError(t("无法读取图片 {{name}}", { name: file.name }));
      }
    }
    if (added.length > 0) props.onImages([...props.images, ...added]);
  }

  const canSend = !busy && (props.text.trim().length > 0 || props.images.length > 0);
  return (
    <form
      className={`border-base-300 rounded-box flex flex-col gap-2 border p-2 ${dragging ? "border-primary bg-primary/5" : ""}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (canSend) props.onSend();
      }}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        void attach(event.dataTransfer.files);
      }}
    >
      {props.images.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label={t("附加的图片")}>
          {props.images.map((url, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: pictures are only added at the end or removed; the same picture may be attached twice
            <li key={index} className="relative">
              <img
                src={url}
                alt={t("图片 {{index}}", { index: index + 1 })}
                className="border-base-300 size-16 rounded border object-cover"
              />
              <button
                type="button"
                className="btn btn-circle btn-xs absolute -top-2 -right-2"
                aria-label={t("移除图片 {{index}}", { index: index + 1 })}
                onClick={() => props.onImages(props.images.filter((_, position) => position !== index))}
              >
                <ActionIcon name="close" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <textarea
        className="textarea w-full resize-none border-0 px-1 focus:outline-none"
        rows={2}
        placeholder={t("输入消息，Enter 发送，Shift+Enter 换行")}
        aria-label={t("消息")}
        value={props.text}
        onChange={(event) => props.onText(event.target.value)}
        onPaste={(event) => {
          const files = [...event.clipboardData.files];
          if (files.some((file) => file.type.startsWith("image/"))) {
            event.preventDefault();
            void attach(files);
          }
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            if (canSend) props.onSend();
          }
        }}
      />
      <div className="flex items-center justify-between gap-2">
        <input
          ref={fileInput}
          type="file"
          accept="image/*"
          multiple
          hidden
          onChange={(event) => void attach(event.target.files ?? []).then(() => (event.target.value = ""))}
        />
        <button
          type="button"
          className="btn btn-ghost btn-sm gap-1"
          onClick={() => fileInput.current?.click()}
          disabled={props.images.length >= maxPictures}
          aria-label={t("附加图片（视觉模型）")}
          title={t("附加图片（视觉模型）")}
        >
          <ActionIcon name="image" />
          <span className="max-[480px]:hidden">{t("图片")}</span>
        </button>
        {busy ? (
          <button type="button" className="btn btn-sm btn-warning gap-1" onClick={props.onStop}>
            <ActionIcon name="stop" />
            {t("停止")}
          </button>
        ) : (
          <button type="submit" className="btn btn-primary btn-sm gap-1" disabled={!canSend}>
            <ActionIcon name="send" />
            {t("发送")}
          </button>
        )}
      </div>
    </form>
  );
}
