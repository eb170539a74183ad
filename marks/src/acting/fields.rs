//! Acting on numbered fields and asking of numbered elements: typing into
//! one (and where the keys went), keys pressed, a select's options, a file
//! field, a value, scrolling one into view, the element at a point, and a
//! screenshot with the numbers drawn on it.

use super::*;

impl Marks {
    /// Types into a numbered field: focuses it, then key events; with
    /// `clear`, what it holds is selected first and typed over (and with
    /// nothing to type, deleted), as a person replaces a field's text.
    /// Returns what the field held before (a password's as `••••`), so the
    /// caller can tell what it should hold now, and where the keys went if
    /// the page moved the focus elsewhere.
    ///
    /// With `secret`, the field and every field the keys wrote into hold a
    /// secret from now on: their values read as `••••` in every answer,
    /// however they are edited, until plain text is typed over the field
    /// (`clear` without `secret`).
    pub async fn type_into(
        &self,
        driver: &dyn Driver,
        number: u32,
        text: &str,
        clear: bool,
        secret: bool,
    ) -> Result<Typed, MarksError> {
        let record = driver.capabilities().supports(Capability::IsolatedWorld);
        let (_, _, answer, target) = self
            .ready_target(
                driver,
                number,
                Action::Focus,
                ActHow {
                    clear: Some(clear),
                    text: (!text.is_empty()).then_some(true),
                    record: Some(record),
                    guard: (record && secret).then_some(true),
                    value: (!secret && !text.is_empty()).then(|| text.to_owned()),
                    ..ActHow::default()
                },
            )
            .await?;
        if answer.focused != Some(true) {
            return Err(MarksError::Unsuitable {
                number,
                action: Action::Focus.done(),
                why: Unsuitable::NoFocus,
            });
        }
        // A rich editable's selection is deleted before the typing as well:
        // an editor (CodeMirror) typed over as a whole keeps an empty line.
        // A date, a colour or a slider given its value as a pick gives it
        // hears no keys.
        let picked = answer.picked == Some(true);
        // A code editor's hidden input (`editorOf`) holds a window of its
        // file at most: the editor's own keys select the whole file, or go
        // to its end, as a person's do.
        if answer.editor_keys == Some(true) && (clear || !text.is_empty()) {
            let key = if clear {
                driver_core::Key::Char('a')
            } else {
                driver_core::Key::End
            };
            let modifiers = driver_core::Modifiers {
                ctrl: true,
                ..driver_core::Modifiers::default()
            };
            driver
                .press(driver_core::KeyPress { key, modifiers })
                .await?;
        }
        let deleted_first = text.is_empty() || answer.rich == Some(true);
        if clear && deleted_first && answer.selected_all == Some(true) {
            driver
                .press(driver_core::KeyPress::from(driver_core::Key::Backspace))
                .await?;
        }
        if !picked {
            driver.type_text(text).await?;
        }
        let holds = if secret {
            Some(Holds::Secret)
        } else {
            clear.then_some(Holds::Plain)
        };
        let reached = if record && !text.is_empty() && !picked {
            self.reached(driver, &target, KEY_EVENTS, holds).await
        } else {
            Reached::default()
        };
        if secret {
            // The top document says so, whichever frame the field is in.
            page::run::<Empty>(driver, &[], &Request::Hold { focused: false }).await?;
        }
        Ok(Typed {
            before: answer.value.clone(),
            elsewhere: reached.elsewhere,
            went: reached.went,
            stopped: reached.stopped,
            took_none: reached.took_none,
            picked: if picked { answer.value } else { None },
        })
    }

    /// The frame whose document has the focus, by its path (empty: the
    /// top document), followed into frames of other sites too: where keys
    /// pressed now go. As deep as frames are read, and no deeper than a
    /// frame that does not answer.
    pub async fn focused_frame(&self, driver: &dyn Driver) -> Vec<u32> {
        let mut path = Vec::new();
        while path.len() < MAX_FRAME_DEPTH {
            match page::run::<FocusAnswer>(driver, &path, &Request::Focus).await {
                Ok(Answer::Done(FocusAnswer { frame: Some(frame) })) => path.push(frame),
                _ => break,
            }
        }
        path
    }

    /// Before keys are pressed: notes what has the focus (in whichever
    /// frame holds it, `focused_frame`) and arms its record, for
    /// [`keys_reached`](Self::keys_reached) to say where the keys' events
    /// went. `None` where nothing is focused.
    pub async fn arm_keys(&self, driver: &dyn Driver) -> Option<KeysArmed> {
        let path = self.focused_frame(driver).await;
        let Ok(Answer::Done(answer)) =
            page::run::<ArmKeysAnswer>(driver, &path, &Request::ArmKeys).await
        else {
            return None;
        };
        Some(KeysArmed(Pointee {
            path,
            doc: answer.doc,
            local: answer.id?,
            seen_as: Some((answer.role, answer.name)),
            onward: None,
        }))
    }

    /// After keys were pressed: where the page moved the focus while one
    /// was on its way (in a keydown handler), so that its keypress, text
    /// or click went there instead of what had the focus; numbered. (A
    /// focus the key's own default action moves, Tab's, is no surprise.)
    pub async fn keys_reached(&self, driver: &dyn Driver, armed: &KeysArmed) -> Option<Elsewhere> {
        let (event, reached) = self.reached(driver, &armed.0, &[], None).await.moved?;
        Some(Elsewhere {
            event,
            reached,
            meant: armed.0.meant(),
        })
    }

    /// Where pressing an element would send its form, as the browser would
    /// send it: the method (`get` or `post`) and the address, or `None`
    /// where it sends none to an address. `number`: a numbered element
    /// (pressed: only a submit button sends); `None`: what has the focus,
    /// in whichever frame holds it (`focused_frame`), pressed by Enter
    /// where `enter` (a field of a form sends it too).
    pub async fn sends(
        &self,
        driver: &dyn Driver,
        number: Option<u32>,
        enter: bool,
    ) -> Result<Option<(String, PageText)>, MarksError> {
        let (path, id, doc) = match number {
            Some(number) => {
                let tab = driver.current_tab().await?;
                let target = self.target(&tab, number)?;
                (target.path, Some(target.local), Some(target.doc))
            }
            None => (self.focused_frame(driver).await, None, None),
        };
        let request = Request::Sends { id, doc, enter };
        match page::run::<SendsAnswer>(driver, &path, &request).await? {
            Answer::Done(answer) => Ok(answer.sends),
            // (Only a numbered element's document can have gone.)
            Answer::Refused(_) => Err(MarksError::Navigated {
                number: number.unwrap_or_default(),
            }),
        }
    }

    /// Selects options of a numbered select by label or value; returns the
    /// labels selected.
    pub async fn select(
        &self,
        driver: &dyn Driver,
        number: u32,
        values: &[String],
    ) -> Result<Vec<PageText>, MarksError> {
        let (_, _, answer) = self
            .ready(
                driver,
                number,
                Action::Select,
                ActHow {
                    values: Some(values.to_vec()),
                    ..ActHow::default()
                },
            )
            .await?;
        Ok(answer.selected.unwrap_or_default())
    }

    /// Readies a numbered element for an action of the caller's own:
    /// scrolled into view (unless `scroll` is false) and described.
    pub async fn locate(
        &self,
        driver: &dyn Driver,
        number: u32,
        scroll: bool,
    ) -> Result<Located, MarksError> {
        let how = ActHow {
            scroll: Some(scroll),
            ..ActHow::default()
        };
        self.locate_for(driver, number, Action::None, how).await
    }

    /// Readies the file field a numbered element stands for and reads it
    /// (in tabwright's world: nothing is written into the page); with a
    /// `token`, also marks it with the attribute `data-tabwright-upload`,
    /// for a backend whose only way to it is a selector in the page's
    /// world. `file` is `None` when it has none.
    pub async fn locate_file(
        &self,
        driver: &dyn Driver,
        number: u32,
        token: Option<&str>,
    ) -> Result<Located, MarksError> {
        let how = ActHow {
            token: token.map(str::to_owned),
            ..ActHow::default()
        };
        self.locate_for(driver, number, Action::File, how).await
    }

    async fn locate_for(
        &self,
        driver: &dyn Driver,
        number: u32,
        action: Action,
        how: ActHow,
    ) -> Result<Located, MarksError> {
        let (x, y, answer) = self.ready(driver, number, action, how).await?;
        // The box moves with the centre (a cross-origin frame's offset).
        let mut rect = answer.rect.rect();
        rect.x += (x - answer.x).round() as i64;
        rect.y += (y - answer.y).round() as i64;
        Ok(Located {
            x,
            y,
            rect,
            tag: answer.tag,
            input_type: answer.input_type,
            checked: answer.checked,
            value: answer.value,
            file: answer.file.map(|file| FileField {
                multiple: file.multiple,
                files: file.files,
                path: file.path,
            }),
            covered: answer.covered,
        })
    }

    /// What a numbered field holds now (a password's as `••••`), read
    /// without scrolling: how an action checks that what it typed took.
    pub async fn value_of(
        &self,
        driver: &dyn Driver,
        number: u32,
    ) -> Result<Option<PageText>, MarksError> {
        let (_, _, answer) = self
            .ready(
                driver,
                number,
                Action::None,
                ActHow {
                    scroll: Some(false),
                    ..ActHow::default()
                },
            )
            .await?;
        Ok(answer.value)
    }

    /// Scrolls a numbered element into the middle of the viewport.
    pub async fn scroll_to(&self, driver: &dyn Driver, number: u32) -> Result<(), MarksError> {
        self.ready(driver, number, Action::None, ActHow::default())
            .await
            .map(|_| ())
    }

    /// The numbered element at a point of the viewport (numbering it if it
    /// had no number yet), or `None` when nothing actionable is there.
    pub async fn element_at(
        &self,
        driver: &dyn Driver,
        x: f64,
        y: f64,
    ) -> Result<Option<(u32, PageText, PageText)>, MarksError> {
        Ok(self.at(driver, x, y).await?.1)
    }

    /// The frame drawn at a point of the viewport, by its path of
    /// `window.frames` indices (empty: the top document; as deep as a
    /// frame's script answers), and the numbered element there as
    /// [`element_at`](Self::element_at) gives it.
    #[allow(clippy::type_complexity)]
    pub async fn at(
        &self,
        driver: &dyn Driver,
        x: f64,
        y: f64,
    ) -> Result<(Vec<u32>, Option<(u32, PageText, PageText)>), MarksError> {
        let tab = driver.current_tab().await?;
        let mut path = Vec::new();
        let mut request = Request::At {
            x,
            y,
            frame: FrameFields::default(),
        };
        for _ in 0..=MAX_FRAME_DEPTH {
            let answer = match page::run::<AtAnswer>(driver, &path, &request).await? {
                Answer::Done(answer) => answer,
                Answer::Refused(_) => return Ok((path, None)),
            };
            match answer {
                AtAnswer::Frame {
                    frame,
                    x,
                    y,
                    offset,
                } => {
                    path = frame;
                    request = Request::At {
                        x,
                        y,
                        frame: FrameFields {
                            path: Some(path.clone()),
                            offset: Some(offset),
                            ..FrameFields::default()
                        },
                    };
                }
                AtAnswer::Element {
                    id,
                    doc,
                    role,
                    name,
                    ..
                } => {
                    let number = self.with_tab(&tab, |marks| {
                        marks.number_all(&path, &doc, std::iter::once(id))[0]
                    });
                    return Ok((path, Some((number, role, name))));
                }
                AtAnswer::Nothing { .. } => return Ok((path, None)),
            }
        }
        Ok((path, None))
    }

    /// A screenshot of the viewport with each numbered element's box and
    /// number drawn on it, the same numbers as the snapshot it returns;
    /// with `cover`, the fields that hold a secret covered (see
    /// [`screenshot_covering_secrets`]).
    pub async fn marked_screenshot(
        &self,
        driver: &dyn Driver,
        format: ScreenshotFormat,
        cover: bool,
    ) -> Result<(Vec<u8>, Snapshot), MarksError> {
        let snapshot = self.snapshot(driver, SnapshotOptions::default()).await?;
        let marks: Vec<MarkBox> = snapshot
            .elements
            .values()
            .filter(|element| {
                !element.offscreen
                    && element.rect.y + element.rect.height > 0
                    && element.rect.y < snapshot.viewport.1
            })
            .map(|element| MarkBox {
                n: element.number,
                x: element.rect.x,
                y: element.rect.y,
                w: element.rect.width,
                h: element.rect.height,
            })
            .collect();
        page::run::<Empty>(driver, &[], &Request::Mark { marks }).await?;
        if cover {
            page::run::<CoverAnswer>(driver, &[], &Request::Cover).await?;
        }
        let picture = driver
            .screenshot(ScreenshotOptions {
                format,
                full_page: false,
            })
            .await;
        let _ = page::run::<Empty>(driver, &[], &Request::Unmark).await;
        Ok((picture?, snapshot))
    }
}

/// Which frame of a document has the focus (`focus`), by its index.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct FocusAnswer {
    frame: Option<u32>,
}
